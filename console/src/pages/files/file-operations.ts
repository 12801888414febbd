/** The GraphQL the Files page runs: a page of the key's files, and deleting one. */

export const FILES_PAGE_SIZE = 20;

export interface FileRow {
  id: string;
  filename: string;
  bytes: number;
  purpose: 'USER_DATA' | 'VISION';
  mimeType: string;
  createdAt: number;
  expiresAt: number;
}

export interface FilesPage {
  files: { edges: Array<{ node: FileRow }>; pageInfo: { endCursor: string | null; hasNextPage: boolean } };
}

export const FILES_QUERY = `query ConsoleFiles($first: Int, $after: String) {
  files(first: $first, after: $after) {
    edges { node { id filename bytes purpose mimeType createdAt expiresAt } }
    pageInfo { endCursor hasNextPage }
  }
}`;

export const DELETE_FILE = `mutation ConsoleDeleteFile($id: ID!) { deleteFile(id: $id) { id deleted } }`;
