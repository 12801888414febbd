/** How an upstream MCP server answered this instance lately: the last call that reached it, the last that failed, and why. */
export interface McpServerHealthView {
  lastSuccessAt: Date | null;
  lastFailureAt: Date | null;
  lastError: string | null;
}

const NEVER_CALLED: McpServerHealthView = { lastSuccessAt: null, lastFailureAt: null, lastError: null };

/**
 * The health of each upstream MCP server as this instance saw it, kept in
 * memory by the protocol client: a server that answered (a JSON-RPC error
 * included, which is the server speaking) is a success; one that could not
 * be reached, timed out, refused the gateway's credentials or answered
 * malformed is a failure with its reason. Each instance keeps its own; a
 * restart forgets it.
 */
export class McpServerHealth {
  private readonly servers = new Map<string, McpServerHealthView>();

  constructor(private readonly now: () => Date = () => new Date()) {}

  succeeded(server: string): void {
    this.servers.set(server, { ...this.of(server), lastSuccessAt: this.now() });
  }

  failed(server: string, error: string): void {
    this.servers.set(server, { ...this.of(server), lastFailureAt: this.now(), lastError: error });
  }

  of(server: string): McpServerHealthView {
    return this.servers.get(server) ?? NEVER_CALLED;
  }
}
