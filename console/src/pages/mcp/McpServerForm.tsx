import { useState } from 'preact/hooks';
import { Field } from '../../components/Field';
import { ProblemNotice } from '../../components/ProblemNotice';
import { useToast } from '../../components/Toasts';
import type { AdminSession } from '../../lib/admin-session';
import { useAction } from '../../lib/use-action';
import { ADD_MCP_SERVER, UPDATE_MCP_SERVER, type McpServer } from './mcp-operations';

/**
 * Adds an MCP server, or changes one (`editing`): its address, whether it
 * may be on a private network, its price per call and time limit, and an
 * API key header whose value the gateway reads from an environment variable
 * (a secret is never typed into the console). A server with another kind of
 * auth keeps it. The gateway validates the edit as a catalog revision and
 * names the field it refuses.
 */
export function McpServerForm({ admin, editing, onDone }: { admin: AdminSession; editing?: McpServer; onDone(): void }) {
  const header = editing?.auth.type === 'headers' ? Object.entries(editing.auth.headers ?? {})[0] : undefined;
  const [name, setName] = useState(editing?.name ?? '');
  const [url, setUrl] = useState(editing?.url ?? '');
  const [isPrivate, setPrivate] = useState(editing?.private ?? false);
  const [price, setPrice] = useState(editing?.pricePerCall ?? '');
  const [timeout, setTimeoutMs] = useState(editing ? String(editing.timeoutMs) : '');
  const [headerName, setHeaderName] = useState(header?.[0] ?? '');
  const [headerVariable, setHeaderVariable] = useState(header?.[1] ?? '');
  const action = useAction();
  const toast = useToast();
  const keepsOtherAuth = editing !== undefined && editing.auth.type !== 'none' && editing.auth.type !== 'headers';
  const title = editing ? `Edit MCP server ${editing.name}` : 'Add an MCP server';

  const fields = () => {
    const auth = headerName || headerVariable ? { type: 'headers', headers: { [headerName]: headerVariable } } : { type: 'none' };
    return {
      url,
      private: isPrivate,
      pricePerCall: price.trim() === '' ? null : price.trim(),
      timeoutMs: timeout.trim() === '' ? null : Number(timeout),
      ...(!keepsOtherAuth && { auth }),
    };
  };

  return (
    <form
      class="inline-form"
      aria-label={title}
      onSubmit={(event) => {
        event.preventDefault();
        void action.run(async () => {
          if (editing) {
            await admin.request(UPDATE_MCP_SERVER, { name: editing.name, input: fields() });
            toast(`Changed MCP server ${editing.name}.`, 'success');
          } else {
            const { pricePerCall, timeoutMs, ...rest } = fields();
            await admin.request(ADD_MCP_SERVER, { input: { name, ...rest, ...(pricePerCall !== null && { pricePerCall }), ...(timeoutMs !== null && { timeoutMs }) } });
            toast(`Added MCP server ${name}.`, 'success');
            for (const clear of [setName, setUrl, setPrice, setTimeoutMs, setHeaderName, setHeaderVariable]) clear('');
            setPrivate(false);
          }
          admin.changed();
          onDone();
        });
      }}
    >
      <div class="fields">
        {editing ? (
          <strong class="editing-name">{editing.name}</strong>
        ) : (
          <Field label="Server name">{(id) => <input id={id} value={name} placeholder="weather" onInput={(event) => setName(event.currentTarget.value)} />}</Field>
        )}
        <Field label="URL" grow>
          {(id) => <input id={id} value={url} placeholder="https://weather.example.com/mcp" onInput={(event) => setUrl(event.currentTarget.value)} />}
        </Field>
        <Field label="Price per call (USD)">{(id) => <input id={id} value={price} inputMode="decimal" placeholder="0.002" onInput={(event) => setPrice(event.currentTarget.value)} />}</Field>
        <Field label="Time limit (ms)">{(id) => <input id={id} value={timeout} inputMode="numeric" placeholder="30000" onInput={(event) => setTimeoutMs(event.currentTarget.value)} />}</Field>
        {keepsOtherAuth ? (
          <p class="muted small">Authenticates with {editing!.auth.type}, which stays as it is.</p>
        ) : (
          <>
            <Field label="Auth header (optional)">{(id) => <input id={id} value={headerName} placeholder="X-Api-Key" onInput={(event) => setHeaderName(event.currentTarget.value)} />}</Field>
            <Field label="Its environment variable">{(id) => <input id={id} value={headerVariable} placeholder="WEATHER_MCP_KEY" onInput={(event) => setHeaderVariable(event.currentTarget.value)} />}</Field>
          </>
        )}
        <label class="checkbox">
          <input type="checkbox" checked={isPrivate} onChange={(event) => setPrivate(event.currentTarget.checked)} /> On a private network
        </label>
        <button type="submit" disabled={action.pending}>
          {editing ? 'Save' : 'Add server'}
        </button>
        {editing && (
          <button type="button" class="secondary" onClick={onDone}>
            Cancel
          </button>
        )}
      </div>
      <ProblemNotice problem={action.problem} />
    </form>
  );
}
