import { OperatorPage } from '../../components/OperatorPage';
import { ProblemNotice } from '../../components/ProblemNotice';
import { useAdminSession } from '../../lib/admin-session';
import { useGraphqlQuery } from '../../lib/use-graphql-query';
import type { StoredSecret } from '../../lib/use-stored-secret';
import { McpServerForm } from './McpServerForm';
import { McpServerTable } from './McpServerTable';
import { MCP_SERVERS_QUERY, type McpServer } from './mcp-operations';

/**
 * MCP: the operator's MCP servers (the catalog's `mcp.servers`, served to
 * keys at /mcp) over the admin GraphQL with the admin token: each with its
 * health, added, edited, switched off or on, removed. Which tools a key may
 * use is set on the Admin page's key editor.
 */
export function McpPage({ token }: { token: StoredSecret }) {
  return (
    <OperatorPage title="MCP servers" token={token}>
      {(value) => <Servers key={value} token={value} />}
    </OperatorPage>
  );
}

function Servers({ token }: { token: string }) {
  const admin = useAdminSession(token);
  const list = useGraphqlQuery<{ mcpServers: McpServer[] }>(admin.endpoint, MCP_SERVERS_QUERY, {}, admin.revision);
  return (
    <section class="card" aria-labelledby="mcp-servers-title">
      <header class="page-header">
        <h2 id="mcp-servers-title">Servers</h2>
        <button type="button" class="secondary" disabled={list.loading} onClick={list.reload}>
          Refresh health
        </button>
      </header>
      <ProblemNotice problem={list.problem} />
      {list.data && <McpServerTable admin={admin} servers={list.data.mcpServers} />}
      <McpServerForm admin={admin} onDone={() => undefined} />
    </section>
  );
}
