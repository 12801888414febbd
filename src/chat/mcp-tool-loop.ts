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
 * reason `length`). The answer is the last turn's message, with the MCP
 * calls made listed in its `mcp_calls` and `usage` summed over every turn.
 */
export async function runMcpToolLoop(ctx: RequestContext, split: SplitMcpTools, tools: McpToolsForModels, endpoint: string, modelTurn: ModelTurn): Promise<ChatCompletion> {
  const offered = await tools.offer(ctx, split.specs, split.indexes);
  const offeredNames = new Set(offered.map((t) => t.function.name));
  const body = { ...split.body, tools: [...split.body.tools, ...offered] };
  if (!body.tools.length) delete (body as { tools?: unknown }).tools;
  const calls: McpCallMade[] = [];
  let usage: ChatUsage | null = null;
  for (let n = 1; ; n++) {
    const completion = n === 1 ? await modelTurn(ctx, body) : await furtherTurn(ctx, tools, endpoint, body, modelTurn);
    usage = addUsage(usage, completion.usage);
    const choice = completion.choices[0];
    const asked = choice?.message.tool_calls ?? [];
    const mcpCalls = asked.filter((c) => offeredNames.has(c.function.name));
    const done = !choice || !mcpCalls.length || mcpCalls.length < asked.length || n === MAX_MODEL_TURNS;
    if (done) {
      if (choice && mcpCalls.length) {
        const clientCalls = asked.filter((c) => !offeredNames.has(c.function.name));
        choice.message.tool_calls = clientCalls.length ? clientCalls : undefined;
        if (!clientCalls.length) choice.finish_reason = 'length';
      }
      return answer(completion, usage, calls);
    }
    body.messages.push(assistantTurn(choice.message.content, mcpCalls, choice.message.reasoning_details));
    for (const asked of mcpCalls) {
      const made = await tools.call(ctx, asked.function.name, asked.function.arguments);
      calls.push(made);
      body.messages.push({ role: 'tool', tool_call_id: asked.id, content: made.error === null ? made.output ?? '' : `Error: ${made.error}` });
    }
  }
}

async function furtherTurn(ctx: RequestContext, tools: McpToolsForModels, endpoint: string, body: Record<string, unknown>, modelTurn: ModelTurn): Promise<ChatCompletion> {
  const turn = await tools.openTurn(ctx, endpoint, body);
  ctx.logger.info('mcp tool loop: further model turn', { turn_request_id: turn.requestId });
  try {
    return await modelTurn(turn, body);
  } catch (err) {
    throw await tools.refuse(turn, err);
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
