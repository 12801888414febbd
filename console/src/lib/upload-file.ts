import { GatewayProblem } from './gateway-problem';

/** The file object `POST /v1/files` answers with (OpenAI's shape). */
export interface UploadedFile {
  id: string;
  filename: string;
  bytes: number;
  purpose: string;
}

export interface Upload {
  /** Settles with the stored file, or rejects with the gateway's error. */
  done: Promise<UploadedFile>;
  abort(): void;
}

/**
 * `POST /v1/files` as multipart/form-data through XMLHttpRequest, because
 * fetch reports no upload progress: `onProgress` gets the share of the
 * body sent so far, 0 to 1. `purpose` goes before the file, so the gateway
 * judges the file under its purpose's limit as the bytes arrive.
 */
export function uploadFile(key: string, file: File, purpose: string, onProgress: (sent: number) => void): Upload {
  const xhr = new XMLHttpRequest();
  const form = new FormData();
  form.append('purpose', purpose);
  form.append('file', file, file.name);
  const done = new Promise<UploadedFile>((resolve, reject) => {
    xhr.upload.addEventListener('progress', (event) => {
      if (event.lengthComputable && event.total > 0) onProgress(event.loaded / event.total);
    });
    xhr.addEventListener('load', () => {
      const body = parseJson(xhr.responseText);
      if (xhr.status >= 200 && xhr.status < 300) {
        onProgress(1);
        resolve(body as UploadedFile);
      } else {
        reject(GatewayProblem.fromEnvelope(xhr.status, body));
      }
    });
    xhr.addEventListener('error', () => reject(new GatewayProblem('The upload failed: the connection to the gateway broke.')));
    xhr.addEventListener('abort', () => reject(new GatewayProblem('The upload was cancelled.')));
  });
  xhr.open('POST', '/v1/files');
  xhr.setRequestHeader('authorization', `Bearer ${key}`);
  xhr.send(form);
  return { done, abort: () => xhr.abort() };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
