import { useState } from 'preact/hooks';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { DataTable } from '../../components/DataTable';
import { formatBytes, formatTime } from '../../lib/format';
import type { FileRow } from './file-operations';

/** A page of the key's files, newest first, each with Download and Delete (asked first: a deleted file is gone). */
export function FileTable({ files, onDownload, onDelete }: { files: FileRow[]; onDownload(file: FileRow): void; onDelete(file: FileRow): Promise<void> }) {
  const [deleting, setDeleting] = useState<FileRow>();
  if (files.length === 0) return <p class="muted">No files. Upload one above.</p>;
  return (
    <>
      <DataTable caption="Files" captionHidden columns={['Name', 'Purpose', { label: 'Size', number: true }, 'Type', 'Uploaded', 'Expires', { label: 'Actions', labelHidden: true }]}>
        {files.map((file) => (
          <tr key={file.id} data-file-id={file.id}>
            <td>
              <div>{file.filename}</div>
              <code class="muted small">{file.id}</code>
            </td>
            <td>{file.purpose.toLowerCase()}</td>
            <td class="number nowrap">{formatBytes(file.bytes)}</td>
            <td>
              <code class="small">{file.mimeType}</code>
            </td>
            <td class="nowrap">{formatTime(file.createdAt)}</td>
            <td class="nowrap">{formatTime(file.expiresAt)}</td>
            <td class="actions">
              <button type="button" class="link-button" onClick={() => onDownload(file)} aria-label={`Download ${file.filename}`}>
                Download
              </button>
              <button type="button" class="link-button danger" onClick={() => setDeleting(file)} aria-label={`Delete ${file.filename}`}>
                Delete
              </button>
            </td>
          </tr>
        ))}
      </DataTable>
      {deleting && (
        <ConfirmDialog title={`Delete ${deleting.filename}?`} confirmLabel="Delete" onConfirm={() => onDelete(deleting)} onClose={() => setDeleting(undefined)}>
          <p>The file and its content are removed from the gateway; a request that names it afterwards is refused.</p>
        </ConfirmDialog>
      )}
    </>
  );
}
