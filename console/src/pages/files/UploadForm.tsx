import { useRef, useState } from 'preact/hooks';
import { Field } from '../../components/Field';
import { ProblemNotice } from '../../components/ProblemNotice';
import { ProgressBar } from '../../components/ProgressBar';
import { useToast } from '../../components/Toasts';
import { formatBytes } from '../../lib/format';
import { toProblem, type GatewayProblem } from '../../lib/gateway-problem';
import { uploadFile, type Upload, type UploadedFile } from '../../lib/upload-file';

/**
 * Uploads one file to `POST /v1/files` with a purpose (`user_data` for
 * documents, `vision` for images), showing how much of it has been sent;
 * an upload in flight can be cancelled.
 */
export function UploadForm({ apiKey, onUploaded }: { apiKey: string; onUploaded(file: UploadedFile): void }) {
  const toast = useToast();
  const input = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File>();
  const [purpose, setPurpose] = useState('user_data');
  const [sent, setSent] = useState<number>();
  const [upload, setUpload] = useState<Upload>();
  const [problem, setProblem] = useState<GatewayProblem>();

  const start = async () => {
    if (!file) return;
    setProblem(undefined);
    setSent(0);
    const current = uploadFile(apiKey, file, purpose, setSent);
    setUpload(current);
    try {
      const stored = await current.done;
      toast(`Uploaded ${stored.filename} (${formatBytes(stored.bytes)}).`, 'success');
      setFile(undefined);
      if (input.current) input.current.value = '';
      onUploaded(stored);
    } catch (err) {
      setProblem(toProblem(err));
    } finally {
      setUpload(undefined);
    }
  };

  return (
    <form
      class="card inline-form"
      onSubmit={(event) => {
        event.preventDefault();
        void start();
      }}
    >
      <h2>Upload a file</h2>
      <div class="fields">
        <Field label="File" grow>
          {(id) => <input id={id} ref={input} type="file" required onChange={(event) => setFile(event.currentTarget.files?.[0])} />}
        </Field>
        <Field label="Purpose">
          {(id) => (
            <select id={id} value={purpose} onChange={(event) => setPurpose(event.currentTarget.value)}>
              <option value="user_data">user_data (documents)</option>
              <option value="vision">vision (images)</option>
            </select>
          )}
        </Field>
        {upload ? (
          <button type="button" class="secondary" onClick={() => upload.abort()}>
            Cancel upload
          </button>
        ) : (
          <button type="submit" disabled={!file}>
            Upload
          </button>
        )}
      </div>
      {sent !== undefined && <ProgressBar label="Upload progress" fraction={sent} />}
      <ProblemNotice problem={problem} />
    </form>
  );
}
