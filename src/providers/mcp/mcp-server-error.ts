/**
 * A JSON-RPC error an upstream MCP server answered with (an unknown tool,
 * invalid arguments): the server's own code and message, which the
 * gateway passes on to its client, prefixed with the server's name.
 */
export class McpServerError extends Error {
  override readonly name = 'McpServerError';

  constructor(
    readonly server: string,
    readonly code: number,
    readonly serverMessage: string,
    readonly data: unknown,
  ) {
    super(`MCP server "${server}": ${serverMessage}`);
  }
}
