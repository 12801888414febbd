import { useState } from 'preact/hooks';
import { CursorPager } from '../../components/CursorPager';
import { ProblemNotice } from '../../components/ProblemNotice';
import { useToast } from '../../components/Toasts';
import { toProblem, type GatewayProblem } from '../../lib/gateway-problem';
import { graphqlRequest, GRAPHQL_PATH } from '../../lib/graphql-request';
import { saveDownload } from '../../lib/save-download';
import { useCursorPages } from '../../lib/use-cursor-pages';
import { useGraphqlQuery } from '../../lib/use-graphql-query';
import { DELETE_FILE, FILES_PAGE_SIZE, FILES_QUERY, type FilesPage as FilesAnswer, type FileRow } from './file-operations';
import { FileTable } from './FileTable';
import { UploadForm } from './UploadForm';

/**
 * Files: upload (REST, with progress), the key's files page by page
 * (GraphQL `files`), download (REST content, with the key) and delete
 * (GraphQL `deleteFile`).
 */
export function FilesPage({ apiKey }: { apiKey: string }) {
  const endpoint = { path: GRAPHQL_PATH, secret: apiKey };
  const toast = useToast();
  const pages = useCursorPages();
  const list = useGraphqlQuery<FilesAnswer>(endpoint, FILES_QUERY, { first: FILES_PAGE_SIZE, after: pages.after });
  const [problem, setProblem] = useState<GatewayProblem>();

  const download = (file: FileRow) =>
    saveDownload(`/v1/files/${encodeURIComponent(file.id)}/content`, apiKey, file.filename).catch((err: unknown) => setProblem(toProblem(err)));
  // A refusal is shown by the confirmation dialog that asked.
  const remove = async (file: FileRow) => {
    await graphqlRequest(endpoint, DELETE_FILE, { id: file.id });
    toast(`Deleted ${file.filename}.`, 'success');
    list.reload();
  };

  return (
    <section aria-labelledby="files-title">
      <header class="page-header">
        <h1 id="files-title">Files</h1>
      </header>
      <UploadForm
        apiKey={apiKey}
        onUploaded={() => {
          // The newest file is first: show the first page, fetched afresh.
          if (pages.number === 1) list.reload();
          else pages.reset();
        }}
      />
      <ProblemNotice problem={problem ?? list.problem} onDismiss={problem ? () => setProblem(undefined) : undefined} />
      {list.data && <FileTable files={list.data.files.edges.map((e) => e.node)} onDownload={download} onDelete={remove} />}
      <CursorPager pages={pages} pageInfo={list.data?.files.pageInfo} label="Files" />
    </section>
  );
}
