import { readMcpToolSpec, type McpToolSpec } from '../mcp/mcp-tool-spec';
import type { McpCallMade, McpToolsForModels } from '../mcp/mcp-tools-for-models';
import type { RequestContext } from '../model-call/request-context';
import type { ChatCompletion, ChatToolCall, ChatUsage } from '../providers/chat-types';
import { isMcpTool } from '../providers/mcp/mcp-tools-elsewhere';

/** The most model turns one request runs: the answer after the last one ends the loop, its MCP calls not run. */
export const MAX_MODEL_TURNS = 8;

/** A chat request's MCP tools, taken out of its `tools`, and the request without them. */
export interface SplitMcpTools {
  body: Record<string, unknown> & { tools: unknown[]; messages: unknown[] };
  specs: McpToolSpec[];
  /** Where each spec stood in `tools`, for errors that name it. */
  indexes: number[];
}

/** The MCP tools of a chat request (read, 400 when malformed), or undefined when it names none. */
export function splitMcpTools(raw: unknown): SplitMcpTools | undefined {
  const tools = raw && typeof raw === 'object' ? (raw as { tools?: unknown }).tools : undefined;
  if (!Array.isArray(tools) || !tools.some(isMcpTool)) return undefined;
  const specs: McpToolSpec[] = [];
  const indexes: number[] = [];
  const rest: unknown[] = [];
  for (const [index, tool] of tools.entries()) {
    if (!isMcpTool(tool)) rest.push(tool);
    else {
      specs.push(readMcpToolSpec(tool as Record<string, unknown>, index));
      indexes.push(index);
    }
  }
  const messages = (raw as { messages?: unknown }).messages;
  return { body: { ...(raw as Record<string, unknown>), tools: rest, messages: Array.isArray(messages) ? [...messages] : [] }, specs, indexes };
}

/** One model turn: the chat service's non-streaming call on the turn's own context. */
export type ModelTurn = (turn: RequestContext, body: Record<string, unknown>) => Promise<ChatCompletion>;

/** What a model turn answered, as the loop reads it: its text, its tool calls and its signed reasoning state. */
export interface TurnMessage {
  content: string | null;
  tool_calls?: ChatToolCall[];
  reasoning_details?: unknown[];
}

/** After a turn: the loop ends (with the client's own tool calls of that turn, and whether MCP calls were left unrun), or it runs the turn's MCP calls. */
export type LoopStep =
  | { done: true; clientCalls: ChatToolCall[]; mcpCallsLeft: boolean }
  | { done: false; mcpCalls: ChatToolCall[] };

/**
 * The tool loop the gateway runs for a request that names MCP tools: the
 * model is offered the servers' tools as function tools; each call it makes
 * of one is run through the MCP gateway (its own usage record, endpoint
 * `/mcp`), its result appended as a tool message, and the model asked
 * again. The first turn is the request's own model call (its record, its
 * request id); each further turn is a model call of its own, with its own
 * request id and record on the same endpoint, as a decision's question
 * generation is. The loop ends when the model answers without calling an
 * MCP tool, when it calls a function the client declared (returned to the
 * client as usual, the MCP calls of that turn not run), or after
 * MAX_MODEL_TURNS turns (the last answer without its tool calls, finish
 * reason `length`). Its steps are shared by the answer
 * (`runMcpToolLoop`) and the stream (`mcp-tool-loop-stream.ts`), which
 * differ only in how a turn is asked and what the client is sent.
 */
export class McpToolLoop {
  /** The MCP calls made so far. */
  readonly calls: McpCallMade[] = [];
  /** Every turn's tokens so far. */
  usage: ChatUsage | null = null;
  private turns = 0;

  private constructor(
    private readonly ctx: RequestContext,
    private readonly tools: McpToolsForModels,
    private readonly endpoint: string,
    /** The request as the model is asked it: the client's tools and the offered ones; the turns' messages appended. */
    readonly body: SplitMcpTools['body'],
    private readonly offered: ReadonlySet<string>,
  ) {}

  /** Offers the request's MCP tools (400 for a server not registered, 502 for one that did not list its tools). */
  static async open(ctx: RequestContext, split: SplitMcpTools, tools: McpToolsForModels, endpoint: string): Promise<McpToolLoop> {
    const offered = await tools.offer(ctx, split.specs, split.indexes);
    const body = { ...split.body, tools: [...split.body.tools, ...offered] };
    if (!body.tools.length) delete (body as { tools?: unknown }).tools;
    return new McpToolLoop(ctx, tools, endpoint, body, new Set(offered.map((t) => t.function.name)));
  }

  /** Whether a function the model called is an offered MCP tool (run by the gateway) rather than one the client declared. */
  isMcpTool(name: string | undefined): boolean {
    return name !== undefined && this.offered.has(name);
  }

  /** Runs the next model turn: the first on the request's own context, each further one a model call of its own, whose failure before its service settled it is recorded. */
  async turn<T>(ask: (turn: RequestContext, body: Record<string, unknown>) => Promise<T>): Promise<T> {
    if (++this.turns === 1) return ask(this.ctx, this.body);
    const turn = await this.tools.openTurn(this.ctx, this.endpoint, this.body);
    this.ctx.logger.info('mcp tool loop: further model turn', { turn_request_id: turn.requestId });
    try {
      return await ask(turn, this.body);
    } catch (err) {
      throw await this.tools.refuse(turn, err);
    }
  }

  /** What follows a turn that answered `message` (none: the loop ends) and used `usage`. */
  next(message: TurnMessage | undefined, usage: ChatUsage | null | undefined): LoopStep {
    this.usage = addUsage(this.usage, usage);
    const asked = message?.tool_calls ?? [];
    const mcpCalls = asked.filter((c) => this.offered.has(c.function.name));
    const clientCalls = asked.filter((c) => !this.offered.has(c.function.name));
    if (!message || !mcpCalls.length || clientCalls.length || this.turns === MAX_MODEL_TURNS) return { done: true, clientCalls, mcpCallsLeft: mcpCalls.length > 0 };
    this.body.messages.push(assistantTurn(message.content, mcpCalls, message.reasoning_details));
    return { done: false, mcpCalls };
  }

  /** Runs one MCP call the model asked for, its result (or error) appended as the tool's message. */
  async call(asked: ChatToolCall): Promise<McpCallMade> {
    const made = await this.tools.call(this.ctx, asked.function.name, asked.function.arguments);
    this.calls.push(made);
    this.body.messages.push({ role: 'tool', tool_call_id: asked.id, content: made.error === null ? made.output ?? '' : `Error: ${made.error}` });
    return made;
  }
}

/** The loop for a non-streaming call: the answer is the last turn's message, with the MCP calls made listed in its `mcp_calls` and `usage` summed over every turn. */
export async function runMcpToolLoop(ctx: RequestContext, split: SplitMcpTools, tools: McpToolsForModels, endpoint: string, modelTurn: ModelTurn): Promise<ChatCompletion> {
  const loop = await McpToolLoop.open(ctx, split, tools, endpoint);
  for (;;) {
    const completion = await loop.turn(modelTurn);
    const choice = completion.choices[0];
    const step = loop.next(choice?.message, completion.usage);
    if (step.done) {
      if (choice && step.mcpCallsLeft) {
        choice.message.tool_calls = step.clientCalls.length ? step.clientCalls : undefined;
        if (!step.clientCalls.length) choice.finish_reason = 'length';
      }
      return answer(completion, loop.usage, loop.calls);
    }
    for (const asked of step.mcpCalls) await loop.call(asked);
  }
}

function assistantTurn(content: string | null, calls: ChatToolCall[], reasoning: unknown[] | undefined): Record<string, unknown> {
  return {
    role: 'assistant',
    content: content || null,
    tool_calls: calls.map((c) => ({ id: c.id, type: 'function', function: { name: c.function.name, arguments: c.function.arguments } })),
    ...(reasoning?.length ? { reasoning_details: reasoning } : {}),
  };
}

/** The last turn's completion as the request's answer: every turn's tokens, the MCP calls made. */
function answer(completion: ChatCompletion, usage: ChatUsage | null, calls: McpCallMade[]): ChatCompletion {
  completion.usage = usage;
  const message = completion.choices[0]?.message;
  if (message) message.mcp_calls = calls;
  return completion;
}

function addUsage(sum: ChatUsage | null, turn: ChatUsage | null | undefined): ChatUsage | null {
  if (!turn) return sum;
  if (!sum) return { ...turn };
  return {
    ...turn,
    prompt_tokens: sum.prompt_tokens + turn.prompt_tokens,
    completion_tokens: sum.completion_tokens + turn.completion_tokens,
    total_tokens: sum.total_tokens + turn.total_tokens,
  };
}
