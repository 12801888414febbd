import { GatewayError } from '../errors/gateway-error';
import { newRequestId } from '../http/request-id';
import type { ModelCallGate } from '../model-call/model-call-gate';
import type { RequestContext } from '../model-call/request-context';
import { MCP_ENDPOINT, type McpService } from './mcp-service';
import type { McpToolSpec } from './mcp-tool-spec';
import { splitNamespacedName } from './namespaced-names';

/** A function tool in chat's wire shape, as the model is offered an MCP tool. */
export interface OfferedFunctionTool {
  type: 'function';
  function: { name: string; description?: string; parameters: Record<string, unknown> };
}

/** What one MCP tool call a model asked for gave, as the client is shown it. */
export interface McpCallMade {
  /** `mcp_` and the call's own request id (its usage record, endpoint `/mcp`). */
  id: string;
  server_label: string;
  /** The tool's own name on its server. */
  name: string;
  arguments: string;
  output: string | null;
  error: string | null;
}

/** A function name as chat takes it (OpenAI's rule); a tool whose namespaced name breaks it is not offered. */
const FUNCTION_NAME = /^[A-Za-z0-9_-]{1,64}$/;

/** Refusals that end the whole loop rather than go back to the model as the tool's error: the key's limits, its money, its permissions. */
const ENDS_THE_LOOP = new Set([402, 403, 429]);

/**
 * The MCP gateway as a model's tools: the tools of the servers a request
 * names, offered as function tools (`<server>__<tool>`, within the key's
 * `mcp_tools` allowlist and the request's `allowed_tools`), and each call
 * the model asks for run as `/mcp`'s `tools/call` is (McpService.callTool):
 * a model call of its own, opened, admitted and recorded with endpoint
 * `/mcp` under a request id of its own.
 */
export class McpToolsForModels {
  constructor(
    private readonly mcp: McpService,
    private readonly gate: ModelCallGate,
  ) {}

  /** The function tools for these MCP tools; 400 for a server that is not registered, 502 for one that did not list its tools. */
  async offer(ctx: RequestContext, specs: readonly McpToolSpec[], indexes: readonly number[]): Promise<OfferedFunctionTool[]> {
    for (const [n, spec] of specs.entries()) {
      if (!this.mcp.hasServer(spec.server)) {
        const param = `tools[${indexes[n]}].server_label`;
        throw new GatewayError('invalid_parameter', `"${param}" names no MCP server of this gateway: "${spec.server}".`, { param });
      }
    }
    const servers = new Set(specs.map((s) => s.server));
    const { tools, unavailable } = await this.mcp.listTools({ principal: ctx.principal, signal: ctx.signal, logger: ctx.logger, span: ctx.span }, servers);
    if (unavailable.length) {
      throw new GatewayError('upstream_unreachable', `The MCP server "${unavailable[0]!.server}" did not list its tools: ${unavailable[0]!.error}`);
    }
    return tools.flatMap((tool) => {
      const name = String(tool.name);
      const named = splitNamespacedName(name);
      const wanted = named && specs.some((s) => s.server === named.server && (!s.allowedTools || s.allowedTools.has(named.name)));
      if (!wanted || !FUNCTION_NAME.test(name)) return [];
      const description = typeof tool.description === 'string' ? tool.description : undefined;
      const parameters = (tool.inputSchema as Record<string, unknown> | undefined) ?? { type: 'object', properties: {} };
      return [{ type: 'function' as const, function: { name, ...(description ? { description } : {}), parameters } }];
    });
  }

  /**
   * Runs one tool call the model asked for. A tool's failure (its own error,
   * a server down or slow) is the call's `error`, for the model to read; a
   * refusal of the key's limits, spend or permissions, or the client
   * leaving, ends the loop (thrown).
   */
  async call(ctx: RequestContext, name: string, args: string): Promise<McpCallMade> {
    const requestId = newRequestId();
    const named = splitNamespacedName(name)!;
    const made = { id: `mcp_${requestId.replace(/^req_/, '')}`, server_label: named.server, name: named.name, arguments: args };
    const parsed = parseArguments(args);
    if (!parsed) return { ...made, output: null, error: 'The arguments are not a JSON object.' };
    const opened = this.gate.open({ requestId, principal: ctx.principal, endpoint: MCP_ENDPOINT, createdAt: new Date(), startedAt: performance.now(), span: ctx.span });
    const call: RequestContext = { ...opened.context, signal: ctx.signal };
    const admit = async () => {
      const admission = await this.gate.admit(call, { endpoint: 'mcp', model: undefined, body: undefined });
      if (admission.refusal) throw admission.refusal;
    };
    try {
      const result = await this.mcp.callTool(call, { name, arguments: parsed }, admit);
      const text = resultText(result);
      return result.isError === true ? { ...made, output: null, error: text } : { ...made, output: text, error: null };
    } catch (err) {
      const refusal = await this.gate.refuse(call, err);
      if (ctx.signal.aborted || ENDS_THE_LOOP.has(refusal.status)) throw refusal;
      return { ...made, output: null, error: refusal.message };
    }
  }

  /**
   * A further model turn of the loop: a model call of its own (its own
   * request id and usage record, on the request's endpoint), admitted under
   * the rate limits with the turn's body. Refused: recorded, and thrown.
   */
  async openTurn(ctx: RequestContext, endpoint: string, body: unknown): Promise<RequestContext> {
    const opened = this.gate.open({ requestId: newRequestId(), principal: ctx.principal, endpoint, createdAt: new Date(), startedAt: performance.now(), span: ctx.span });
    const turn: RequestContext = { ...opened.context, signal: ctx.signal };
    const admission = await this.gate.admit(turn, { endpoint: 'chat', model: (body as { model?: string }).model, body });
    if (admission.refusal) throw await this.gate.refuse(turn, admission.refusal);
    return turn;
  }

  /** Ends a turn that failed before its service settled it (the gate's uncharged record); the error to tell. */
  refuse(turn: RequestContext, err: unknown): Promise<GatewayError> {
    return this.gate.refuse(turn, err);
  }
}

function parseArguments(args: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(args || '{}');
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** A tool result as the text a model reads: its text parts, anything else as JSON. */
function resultText(result: Record<string, unknown>): string {
  const content = Array.isArray(result.content) ? result.content : [];
  const parts = content.map((part: unknown) => {
    const p = part as { type?: unknown; text?: unknown };
    return p?.type === 'text' && typeof p.text === 'string' ? p.text : JSON.stringify(part);
  });
  if (!parts.length && result.structuredContent !== undefined) return JSON.stringify(result.structuredContent);
  return parts.join('\n');
}
