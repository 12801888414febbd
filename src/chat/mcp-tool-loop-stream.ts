import { GatewayError } from '../errors/gateway-error';
import type { McpToolsForModels } from '../mcp/mcp-tools-for-models';
import type { RequestContext } from '../model-call/request-context';
import type { ChatChunkChoice, ChatCompletionChunk, ChatToolCallDelta, ChatUsage, ReasoningDetail } from '../providers/chat-types';
import { McpToolLoop, type LoopStep, type SplitMcpTools, type TurnMessage } from './mcp-tool-loop';

/** One streamed model turn: the chat service's stream on the turn's own context, begun (its first upstream event read). */
export type StreamedModelTurn = (turn: RequestContext, body: Record<string, unknown>) => Promise<AsyncGenerator<ChatCompletionChunk>>;

/** What every chunk the client gets carries: the request's id, time and model, whichever turn it came from. */
interface ChunkHead {
  id: string;
  created: number;
  model: string;
}

/**
 * The MCP tool loop (`McpToolLoop`) for a streamed call: one stream of
 * `chat.completion.chunk`s to the client over every turn. Each turn is
 * streamed by the chat service (its own record, as in the answer's loop);
 * its text and reasoning text go to the client as they arrive, its calls
 * of the offered MCP tools do not (the gateway runs them: each call made
 * is sent as a chunk whose delta holds it in `mcp_calls`), and neither do
 * a turn's finish reason or usage until the loop ends: then one last
 * chunk has the final finish reason (and the final turn's signed reasoning
 * state), and, when the client asked for usage, one chunk has every
 * turn's tokens. A call of a function the client declared is streamed as
 * usual (the turn is then the last). Resolves once the first turn's
 * upstream began, as a plain stream does, so that a refusal before any
 * byte is the HTTP error it would be without MCP tools; a further turn
 * refused ends the stream with an error event.
 */
export async function streamMcpToolLoop(ctx: RequestContext, split: SplitMcpTools, tools: McpToolsForModels, endpoint: string, modelTurn: StreamedModelTurn): Promise<AsyncGenerator<ChatCompletionChunk>> {
  const { n, stream_options: options } = split.body as { n?: unknown; stream_options?: { include_usage?: unknown } | null };
  if (typeof n === 'number' && n > 1) throw new GatewayError('invalid_parameter', 'A streamed call with MCP tools answers with one choice: leave "n" out or send 1.', { param: 'n' });
  const wantsUsage = options?.include_usage === true;
  // Every turn ends with its usage chunk, which the loop sums; the client is sent the sum once, if it asked.
  split.body.stream_options = { ...(options ?? {}), include_usage: true };
  const loop = await McpToolLoop.open(ctx, split, tools, endpoint);
  const first = await loop.turn(modelTurn);
  return relayTurns(loop, first, modelTurn, wantsUsage);
}

async function* relayTurns(loop: McpToolLoop, first: AsyncGenerator<ChatCompletionChunk>, modelTurn: StreamedModelTurn, wantsUsage: boolean): AsyncGenerator<ChatCompletionChunk> {
  let head: ChunkHead | undefined;
  let chunks = first;
  for (let n = 1; ; n++) {
    const turn = new StreamedTurn(loop, n === 1);
    for await (const chunk of chunks) {
      head ??= { id: chunk.id, created: chunk.created, model: chunk.model };
      const out = turn.take(chunk, head);
      if (out) yield out;
    }
    // A turn's stream always ends with its usage chunk (include_usage is on), so the head is known.
    const step = loop.next(turn.message(), turn.usage);
    if (step.done) {
      yield turn.finish(step, head!);
      if (wantsUsage && loop.usage) yield chunkOf(head!, [], loop.usage);
      return;
    }
    for (const asked of step.mcpCalls) {
      const made = await loop.call(asked);
      yield chunkOf(head!, [{ index: 0, delta: { mcp_calls: [made] }, finish_reason: null }]);
    }
    chunks = await loop.turn(modelTurn);
  }
}

/** One turn's stream as the client sees it, and as the loop reads it once it ended. */
class StreamedTurn {
  usage: ChatUsage | null = null;
  private content = '';
  private readonly reasoning: ReasoningDetail[] = [];
  /** The turn's tool calls by their upstream index; a client's own is renumbered among the calls the client sees. */
  private readonly calls = new Map<number, { id: string; name: string; arguments: string; clientIndex: number | undefined }>();
  private clientCalls = 0;
  private finishReason: string | null = null;

  constructor(
    private readonly loop: McpToolLoop,
    private readonly first: boolean,
  ) {}

  /** What the client gets of one chunk (undefined: nothing): the first choice's delta without the offered MCP calls, the signed reasoning state and the finish reason, which wait for the turn's end. */
  take(chunk: ChatCompletionChunk, head: ChunkHead): ChatCompletionChunk | undefined {
    if (chunk.usage) this.usage = chunk.usage;
    const choices: ChatChunkChoice[] = [];
    for (const choice of chunk.choices) {
      if (choice.index !== 0) continue;
      const { reasoning_details: reasoning, tool_calls: toolCalls, ...delta } = choice.delta;
      if (!this.first) delete delta.role;
      if (delta.content) this.content += delta.content;
      if (reasoning?.length) this.reasoning.push(...reasoning);
      const forwarded = toolCalls ? this.noteToolCalls(toolCalls) : [];
      if (forwarded.length) delta.tool_calls = forwarded;
      if (choice.finish_reason) this.finishReason = choice.finish_reason;
      if (Object.keys(delta).length || choice.logprobs) choices.push({ ...choice, delta, finish_reason: null });
    }
    return choices.length ? chunkOf(head, choices) : undefined;
  }

  /** The turn's answer as the loop reads it. */
  message(): TurnMessage {
    const toolCalls = [...this.calls.values()].map((c) => ({ id: c.id, type: 'function' as const, function: { name: c.name, arguments: c.arguments } }));
    return { content: this.content || null, ...(toolCalls.length ? { tool_calls: toolCalls } : {}), ...(this.reasoning.length ? { reasoning_details: this.reasoning } : {}) };
  }

  /** The last chunk of the loop: the final turn's finish reason (`length` when it was cut with MCP calls unrun) and signed reasoning state. */
  finish(step: Extract<LoopStep, { done: true }>, head: ChunkHead): ChatCompletionChunk {
    const finishReason = step.mcpCallsLeft && !step.clientCalls.length ? 'length' : this.finishReason ?? 'stop';
    return chunkOf(head, [{ index: 0, delta: this.reasoning.length ? { reasoning_details: this.reasoning } : {}, finish_reason: finishReason }]);
  }

  /** Notes tool call deltas (a call is named in its first delta); the client's own come back renumbered, the offered MCP tools' are kept back. */
  private noteToolCalls(deltas: ChatToolCallDelta[]): ChatToolCallDelta[] {
    const forwarded: ChatToolCallDelta[] = [];
    for (const d of deltas) {
      let call = this.calls.get(d.index);
      if (!call) {
        call = { id: d.id ?? '', name: d.function?.name ?? '', arguments: '', clientIndex: this.loop.isMcpTool(d.function?.name) ? undefined : this.clientCalls++ };
        this.calls.set(d.index, call);
      }
      call.arguments += d.function?.arguments ?? '';
      if (call.clientIndex !== undefined) forwarded.push({ ...d, index: call.clientIndex });
    }
    return forwarded;
  }
}

function chunkOf(head: ChunkHead, choices: ChatChunkChoice[], usage?: ChatUsage): ChatCompletionChunk {
  return { id: head.id, object: 'chat.completion.chunk', created: head.created, model: head.model, choices, ...(usage ? { usage } : {}) };
}
