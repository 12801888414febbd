import { useState } from 'preact/hooks';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { DataTable } from '../../components/DataTable';
import { ProblemNotice } from '../../components/ProblemNotice';
import { StatusBadge } from '../../components/StatusBadge';
import { useToast } from '../../components/Toasts';
import type { AdminSession } from '../../lib/admin-session';
import { formatTime, formatUsd } from '../../lib/format';
import { useAction } from '../../lib/use-action';
import { McpServerForm } from './McpServerForm';
import { REMOVE_MCP_SERVER, SET_MCP_SERVER_ENABLED, type McpServer } from './mcp-operations';

type Asked = { kind: 'disable' | 'remove'; server: McpServer };

/**
 * The catalog's MCP servers with their health on the instance that
 * answered: address, state, price, the last call that reached each one and
 * the last that failed, with why. A server is edited in place; switching
 * one off or removing it takes its tools away from every key, so both are
 * confirmed first. Switching one on is not.
 */
export function McpServerTable({ admin, servers }: { admin: AdminSession; servers: McpServer[] }) {
  const [editing, setEditing] = useState<string>();
  const [asked, setAsked] = useState<Asked>();
  const enable = useAction();
  const toast = useToast();
  if (servers.length === 0) return <p class="muted">No MCP servers yet.</p>;

  const setEnabled = async (server: McpServer, enabled: boolean) => {
    await admin.request(SET_MCP_SERVER_ENABLED, { name: server.name, enabled });
    toast(`${enabled ? 'Enabled' : 'Disabled'} MCP server ${server.name}.`, 'success');
    admin.changed();
  };
  const confirm = async (a: Asked) => {
    if (a.kind === 'disable') return setEnabled(a.server, false);
    await admin.request(REMOVE_MCP_SERVER, { name: a.server.name });
    toast(`Removed MCP server ${a.server.name}.`, 'success');
    admin.changed();
  };

  return (
    <>
      <ProblemNotice problem={enable.problem} />
      <DataTable caption="MCP servers" captionHidden columns={['Name', 'URL', 'State', 'Price per call', 'Health', { label: 'Actions', labelHidden: true }]}>
        {servers.map((s) =>
          editing === s.name ? (
            <tr key={s.name} data-server={s.name} class="editing">
              <td colSpan={6}>
                <McpServerForm admin={admin} editing={s} onDone={() => setEditing(undefined)} />
              </td>
            </tr>
          ) : (
            <tr key={s.name} data-server={s.name}>
              <td>
                <div>{s.name}</div>
                <div class="muted small">tools: {s.name}__*</div>
              </td>
              <td class="small">
                <code>{s.url}</code>
                {s.private && <div class="muted small">private network</div>}
              </td>
              <td>{s.enabled ? <StatusBadge text="enabled" tone="good" /> : <StatusBadge text="disabled" tone="neutral" />}</td>
              <td class="small">{s.pricePerCall === null ? 'free' : formatUsd(s.pricePerCall)}</td>
              <td class="small" data-health>
                <Health health={s.health} />
              </td>
              <td class="actions-cell">
                <button type="button" class="link-button" aria-label={`Edit MCP server ${s.name}`} onClick={() => setEditing(s.name)}>
                  Edit
                </button>
                {s.enabled ? (
                  <button type="button" class="link-button danger" aria-label={`Disable MCP server ${s.name}`} onClick={() => setAsked({ kind: 'disable', server: s })}>
                    Disable
                  </button>
                ) : (
                  <button type="button" class="link-button" aria-label={`Enable MCP server ${s.name}`} disabled={enable.pending} onClick={() => void enable.run(() => setEnabled(s, true))}>
                    Enable
                  </button>
                )}
                <button type="button" class="link-button danger" aria-label={`Remove MCP server ${s.name}`} onClick={() => setAsked({ kind: 'remove', server: s })}>
                  Remove
                </button>
              </td>
            </tr>
          ),
        )}
      </DataTable>
      {asked && (
        <ConfirmDialog
          title={`${asked.kind === 'remove' ? 'Remove' : 'Disable'} MCP server ${asked.server.name}?`}
          confirmLabel={asked.kind === 'remove' ? 'Remove' : 'Disable'}
          onConfirm={() => confirm(asked)}
          onClose={() => setAsked(undefined)}
        >
          <p>
            Its tools ({asked.server.name}__*) leave /mcp for every key on every instance within seconds
            {asked.kind === 'remove' ? ', and its settings leave the catalog: adding it again means typing them again.' : '; enabling it brings them back.'}
          </p>
        </ConfirmDialog>
      )}
    </>
  );
}

function Health({ health }: { health: McpServer['health'] }) {
  const failedLast = health.lastFailureAt !== null && (health.lastSuccessAt === null || health.lastFailureAt > health.lastSuccessAt);
  if (health.lastSuccessAt === null && health.lastFailureAt === null) return <span class="muted">not called yet</span>;
  return (
    <>
      {failedLast ? <StatusBadge text="failing" tone="bad" /> : <StatusBadge text="answering" tone="good" />}
      {health.lastSuccessAt && <div class="muted small">answered {formatTime(health.lastSuccessAt)}</div>}
      {health.lastFailureAt && <div class="muted small">failed {formatTime(health.lastFailureAt)}</div>}
      {health.lastError && <div class="small">{health.lastError}</div>}
    </>
  );
}
