import { useState } from 'preact/hooks';
import { Field } from '../../components/Field';
import type { AdminSession } from '../../lib/admin-session';
import { RefundDialog } from './RefundDialog';

/** A refund by request id (as a customer quotes it, or as the usage records show it), confirmed in its dialog. */
export function RefundForm({ admin }: { admin: AdminSession }) {
  const [requestId, setRequestId] = useState('');
  const [asking, setAsking] = useState(false);
  return (
    <>
      <form
      class="inline-form"
      aria-label="Refund by request id"
      onSubmit={(event) => {
        event.preventDefault();
        if (requestId.trim()) setAsking(true);
      }}
    >
      <div class="fields">
        <Field label="Refund a request" grow>
          {(id) => <input id={id} value={requestId} placeholder="req_…" required onInput={(event) => setRequestId(event.currentTarget.value)} />}
        </Field>
        <button type="submit" class="secondary">
          Refund…
        </button>
      </div>
      </form>
      {asking && (
        <RefundDialog
          admin={admin}
          requestId={requestId.trim()}
          onClose={() => {
            setAsking(false);
            setRequestId('');
          }}
        />
      )}
    </>
  );
}
