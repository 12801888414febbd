import { useState } from 'preact/hooks';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { DataTable } from '../../components/DataTable';
import { Field } from '../../components/Field';
import { StatusBadge } from '../../components/StatusBadge';
import { useToast } from '../../components/Toasts';
import { formatTime, parseList } from '../../lib/format';
import { REVOKE_KEY, SET_KEY_MCP_TOOLS, UPDATE_KEY, type ApiKey } from './admin-operations';
import type { AdminSession } from '../../lib/admin-session';

/** What the key editor asks to save. */
interface KeyChange {
  models: string[];
  domains: string[];
  /** null: every MCP tool. */
  mcpTools: string[] | null;
}

type Asked = { kind: 'revoke'; key: ApiKey } | ({ kind: 'edit'; key: ApiKey } & KeyChange);

/**
 * An account's keys (never their secrets) and temporary credentials: name,
 * prefix, models, search domains, MCP tools, state; a live key's models,
 * domains and MCP tools are edited in place, and any live one is revoked. Both are confirmed
 * first: they change what the key may do on every instance at once.
 */
export function KeyTable({ admin, keys }: { admin: AdminSession; keys: ApiKey[] }) {
  const [editing, setEditing] = useState<string>();
  const [asked, setAsked] = useState<Asked>();
  const toast = useToast();
  if (keys.length === 0) return <p class="muted">No keys.</p>;
  const now = Date.now();
  const names = new Map(keys.map((k) => [k.id, k.name]));

  const confirm = async (a: Asked) => {
    if (a.kind === 'revoke') {
      await admin.request(REVOKE_KEY, { id: a.key.id });
      toast(`Revoked ${a.key.parentKeyId ? 'credential' : 'key'} ${a.key.name}.`, 'success');
    } else {
      await admin.request(UPDATE_KEY, { id: a.key.id, input: { models: a.models, allowedDomains: a.domains } });
      if (!sameTools(a.key.mcpTools, a.mcpTools)) await admin.request(SET_KEY_MCP_TOOLS, { id: a.key.id, tools: a.mcpTools });
      toast(`Changed key ${a.key.name}.`, 'success');
      setEditing(undefined);
    }
    admin.changed();
  };

  return (
    <>
      <DataTable caption="Keys" captionHidden columns={['Name', 'Prefix', 'Models', 'Search domains', 'MCP tools', 'State', { label: 'Actions', labelHidden: true }]}>
        {keys.map((k) => {
          const expired = k.expiresAt !== null && Date.parse(k.expiresAt) <= now;
          const live = !k.revokedAt && !expired;
          if (editing === k.id) return <KeyEditor key={k.id} apiKey={k} onCancel={() => setEditing(undefined)} onSave={(change) => setAsked({ kind: 'edit', key: k, ...change })} />;
          return (
            <tr key={k.id} data-key-id={k.id}>
              <td>
                <div>{k.name}</div>
                <code class="muted small">{k.id}</code>
                {k.parentKeyId && <div class="muted small">temporary credential of {names.get(k.parentKeyId) ?? k.parentKeyId}</div>}
              </td>
              <td>
                <code>{k.keyPrefix}…</code>
              </td>
              <td class="small">{k.models.length ? k.models.join(', ') : 'every model'}</td>
              <td class="small">{k.allowedDomains.length ? k.allowedDomains.join(', ') : 'every domain'}</td>
              <td class="small">{describeTools(k.mcpTools)}</td>
              <td>
                {k.revokedAt ? <StatusBadge text="revoked" tone="bad" /> : expired ? <StatusBadge text="expired" tone="bad" /> : <StatusBadge text="active" tone="good" />}
                <div class="muted small nowrap">{formatTime(k.createdAt)}</div>
              </td>
              <td class="actions-cell">
                {live && !k.parentKeyId && (
                  <button type="button" class="link-button" aria-label={`Edit key ${k.name}`} onClick={() => setEditing(k.id)}>
                    Edit
                  </button>
                )}
                {live && (
                  <button type="button" class="link-button danger" aria-label={`Revoke key ${k.name}`} onClick={() => setAsked({ kind: 'revoke', key: k })}>
                    Revoke
                  </button>
                )}
              </td>
            </tr>
          );
        })}
      </DataTable>
      {asked && (
        <ConfirmDialog
          title={asked.kind === 'revoke' ? `Revoke ${asked.key.parentKeyId ? 'credential' : 'key'} ${asked.key.name}?` : `Change key ${asked.key.name}?`}
          confirmLabel={asked.kind === 'revoke' ? 'Revoke' : 'Save'}
          onConfirm={() => confirm(asked)}
          onClose={() => setAsked(undefined)}
        >
          {asked.kind === 'revoke' ? (
            <p>
              Every call with <code>{asked.key.keyPrefix}…</code> is refused from now on, on every instance
              {asked.key.parentKeyId ? '' : ', and so is every temporary credential it minted'}. A revoked key cannot be restored.
            </p>
          ) : (
            <ul>
              <li>Models: {describe(asked.key.models, 'every model')} → {describe(asked.models, 'every model')}</li>
              <li>Search domains: {describe(asked.key.allowedDomains, 'every domain')} → {describe(asked.domains, 'every domain')}</li>
              <li>MCP tools: {describeTools(asked.key.mcpTools)} → {describeTools(asked.mcpTools)}</li>
              <li>Its temporary credentials are narrowed with it from their next request.</li>
            </ul>
          )}
        </ConfirmDialog>
      )}
    </>
  );
}

function describe(list: string[], none: string): string {
  return list.length ? list.join(', ') : none;
}

/** A key's MCP tool allowlist: null allows every tool, an empty list none. */
function describeTools(tools: string[] | null): string {
  return tools === null ? 'every tool' : describe(tools, 'none');
}

function sameTools(a: string[] | null, b: string[] | null): boolean {
  return a === null || b === null ? a === b : a.join('\n') === b.join('\n');
}

/** A key's row while its models, domains and MCP tools are edited. */
function KeyEditor({ apiKey, onSave, onCancel }: { apiKey: ApiKey; onSave(change: KeyChange): void; onCancel(): void }) {
  const [models, setModels] = useState(apiKey.models.join(', '));
  const [domains, setDomains] = useState(apiKey.allowedDomains.join(', '));
  const [everyTool, setEveryTool] = useState(apiKey.mcpTools === null);
  const [tools, setTools] = useState((apiKey.mcpTools ?? []).join(', '));
  return (
    <tr data-key-id={apiKey.id} class="editing">
      <td colSpan={7}>
        <form
          class="inline-form"
          aria-label={`Edit key ${apiKey.name}`}
          onSubmit={(event) => {
            event.preventDefault();
            onSave({ models: parseList(models), domains: parseList(domains), mcpTools: everyTool ? null : parseList(tools) });
          }}
        >
          <div class="fields">
            <strong class="editing-name">{apiKey.name}</strong>
            <Field label="Models (empty: every model)" grow>
              {(id) => <input id={id} value={models} onInput={(event) => setModels(event.currentTarget.value)} />}
            </Field>
            <Field label="Search domains (empty: every domain)" grow>
              {(id) => <input id={id} value={domains} onInput={(event) => setDomains(event.currentTarget.value)} />}
            </Field>
            <label class="checkbox">
              <input type="checkbox" checked={everyTool} onChange={(event) => setEveryTool(event.currentTarget.checked)} /> Every MCP tool
            </label>
            {!everyTool && (
              <Field label="MCP tools (weather__*, search__query; empty: none)" grow>
                {(id) => <input id={id} value={tools} onInput={(event) => setTools(event.currentTarget.value)} />}
              </Field>
            )}
            <button type="submit">Save…</button>
            <button type="button" class="secondary" onClick={onCancel}>
              Cancel
            </button>
          </div>
        </form>
      </td>
    </tr>
  );
}
