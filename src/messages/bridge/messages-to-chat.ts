import { GatewayError } from '../../errors/gateway-error';
import type { ReasoningDetail } from '../../providers/chat-types';
import type { ContentBlock, CountTokensRequest, InputMessage, MessagesRequest, TextBlock } from '../messages-request-schema';
import { decodeReasoningState } from '../../chat/carried-reasoning-state';

/**
 * A Messages request as the chat core's request (the OpenAI chat body), for
 * a model that is not served natively: the system prompt a system message;
 * each turn its messages (tool results become `tool` messages, in order,
 * before the rest of the user's turn); images and PDFs as `image_url` and
 * `file` parts; tool calls as `tool_calls`; earlier thinking as the
 * assistant's `reasoning_details` (Anthropic signatures, and the Gemini
 * thought signatures the gateway carried in them); thinking asked for as
 * `reasoning`, so the target family's reasoning rules apply to it;
 * `metadata.user_id` as `user` (scoped to the key by the chat core).
 * Prompt-caching breakpoints stay on text, image and file parts and on
 * tools, where the chat core carries them; `output_config.format` is the
 * chat core's `response_format` (structured output).
 * @see https://docs.anthropic.com/en/api/messages
 */
export function toChatRequest(req: MessagesRequest | CountTokensRequest): Record<string, unknown> {
  const messages: Array<Record<string, unknown>> = [];
  if (req.system !== undefined && (typeof req.system === 'string' ? req.system !== '' : req.system.length > 0)) {
    messages.push({ role: 'system', content: typeof req.system === 'string' ? req.system : req.system.map(textPart) });
  }
  for (const message of req.messages) messages.push(...(message.role === 'user' ? userMessages(message) : [assistantMessage(message)]));
  const body: Record<string, unknown> = { model: req.model, messages };
  const tools = (req.tools ?? []) as Array<{ name: string; description?: string; input_schema: Record<string, unknown> }>;
  if (tools.length) {
    body.tools = (tools as Array<typeof tools[number] & Cacheable>).map((tool) => ({
      type: 'function',
      function: { name: tool.name, ...(tool.description ? { description: tool.description } : {}), parameters: tool.input_schema },
      ...cacheControlOf(tool),
    }));
  }
  if (req.tool_choice) Object.assign(body, toolChoice(req.tool_choice));
  const reasoning = reasoningOf(req);
  if (reasoning) body.reasoning = reasoning;
  const format = req.output_config?.format;
  if (format) body.response_format = { type: 'json_schema', json_schema: { name: 'output', schema: format.schema, strict: true } };
  if (!isMessagesRequest(req)) return body;
  body.max_tokens = req.max_tokens;
  copy(body, 'temperature', req.temperature);
  copy(body, 'top_p', req.top_p);
  copy(body, 'top_k', req.top_k);
  if (req.stop_sequences?.length) body.stop = req.stop_sequences;
  if (req.metadata?.user_id) body.user = req.metadata.user_id;
  if (req.stream) Object.assign(body, { stream: true, stream_options: { include_usage: true } });
  return body;
}

/** A whole Messages request, not a token count's. */
function isMessagesRequest(req: MessagesRequest | CountTokensRequest): req is MessagesRequest {
  return typeof (req as { max_tokens?: unknown }).max_tokens === 'number';
}

/**
 * `thinking` as the chat core's `reasoning`: a budget as `max_tokens`,
 * adaptive thinking at the effort of `output_config` (Anthropic's `max` is
 * the chat core's `xhigh`). Adaptive thinking without an effort, and
 * thinking turned off, ask nothing: the model's own default holds.
 */
function reasoningOf(req: CountTokensRequest): Record<string, unknown> | undefined {
  const thinking = req.thinking;
  if (thinking?.type === 'enabled') return { max_tokens: thinking.budget_tokens };
  const effort = req.output_config?.effort;
  if (!effort || thinking?.type === 'disabled') return undefined;
  return { effort: effort === 'max' ? 'xhigh' : effort };
}

function toolChoice(choice: NonNullable<CountTokensRequest['tool_choice']>): Record<string, unknown> {
  const parallel = 'disable_parallel_tool_use' in choice && choice.disable_parallel_tool_use ? { parallel_tool_calls: false } : {};
  switch (choice.type) {
    case 'auto':
      return { tool_choice: 'auto', ...parallel };
    case 'any':
      return { tool_choice: 'required', ...parallel };
    case 'none':
      return { tool_choice: 'none' };
    case 'tool':
      return { tool_choice: { type: 'function', function: { name: choice.name } }, ...parallel };
  }
}

/** A user turn: its tool results first, as `tool` messages in order (and their images after them), then the rest of what the user sent. */
function userMessages(message: InputMessage): Array<Record<string, unknown>> {
  if (typeof message.content === 'string') return [{ role: 'user', content: message.content }];
  const out: Array<Record<string, unknown>> = [];
  const parts: Array<Record<string, unknown>> = [];
  for (const block of message.content as ContentBlock[]) {
    if (block.type === 'tool_result') {
      const { text, media } = toolResultContent(block);
      out.push({ role: 'tool', tool_call_id: block.tool_use_id, content: text });
      parts.push(...media);
    } else if (block.type === 'thinking' || block.type === 'redacted_thinking' || block.type === 'tool_use') {
      throw new GatewayError('invalid_parameter', `A user message cannot hold a "${block.type}" block.`, { param: 'messages' });
    } else parts.push(...userPart(block));
  }
  if (parts.length) out.push({ role: 'user', content: parts });
  return out;
}

function userPart(block: ContentBlock): Array<Record<string, unknown>> {
  switch (block.type) {
    case 'text':
      return [textPart(block)];
    case 'image':
      return [{ type: 'image_url', image_url: { url: block.source.type === 'base64' ? `data:${block.source.media_type};base64,${block.source.data}` : (block.source as { url: string }).url }, ...cacheControlOf(block) }];
    case 'document':
      return documentParts(block);
    default:
      return [];
  }
}

function documentParts(block: Extract<ContentBlock, { type: 'document' }>): Array<Record<string, unknown>> {
  const source = block.source;
  const titled = (text: string) => ({ type: 'text', text: block.title ? `${block.title}\n\n${text}` : text });
  switch (source.type) {
    case 'base64':
      return [{ type: 'file', file: { file_data: `data:${source.media_type};base64,${source.data}`, filename: block.title || 'document.pdf' }, ...cacheControlOf(block) }];
    case 'text':
      return [titled(source.data)];
    case 'content':
      return typeof source.content === 'string'
        ? [titled(source.content)]
        : (source.content as ContentBlock[]).flatMap((part) => userPart(part));
    default:
      throw new GatewayError('unsupported_parameter', 'A document by URL is read only by Claude models; for this model send the PDF inline (base64).', { param: 'source' });
  }
}

/** A tool result's text for the `tool` message (an error marked as one), and the images or documents it returned. */
function toolResultContent(block: Extract<ContentBlock, { type: 'tool_result' }>): { text: string; media: Array<Record<string, unknown>> } {
  const blocks = typeof block.content === 'string' ? [{ type: 'text', text: block.content } as TextBlock] : ((block.content ?? []) as ContentBlock[]);
  const text = blocks.filter((b): b is TextBlock => b.type === 'text').map((b) => b.text).join('\n');
  const media = blocks.filter((b) => b.type !== 'text').flatMap(userPart);
  return { text: block.is_error ? `Error: ${text}` : text, media };
}

function assistantMessage(message: InputMessage): Record<string, unknown> {
  if (typeof message.content === 'string') return { role: 'assistant', content: message.content };
  const text: Array<Record<string, unknown>> = [];
  const toolCalls: Array<Record<string, unknown>> = [];
  const details: ReasoningDetail[] = [];
  let reasoning = '';
  for (const block of message.content as ContentBlock[]) {
    if (block.type === 'text') text.push(textPart(block));
    else if (block.type === 'tool_use') toolCalls.push({ id: block.id, type: 'function', function: { name: block.name, arguments: JSON.stringify(block.input ?? {}) } });
    else if (block.type === 'thinking') {
      // Reasoning state of another family (a Gemini thought signature) rides in the signature.
      const carried = decodeReasoningState(block.signature);
      if (carried) details.push(...carried);
      else if (block.signature) details.push({ type: 'thinking', thinking: block.thinking, signature: block.signature });
      reasoning += block.thinking;
    } else if (block.type === 'redacted_thinking') details.push({ type: 'redacted_thinking', data: block.data });
    else throw new GatewayError('invalid_parameter', `An assistant message cannot hold a "${block.type}" block.`, { param: 'messages' });
  }
  const out: Record<string, unknown> = { role: 'assistant', content: text.length ? text : toolCalls.length ? null : '' };
  if (toolCalls.length) out.tool_calls = toolCalls;
  if (details.length) out.reasoning_details = details;
  if (reasoning) out.reasoning_content = reasoning;
  return out;
}

function textPart(block: TextBlock): Record<string, unknown> {
  return { type: 'text', text: block.text, ...cacheControlOf(block) };
}

type Cacheable = { cache_control?: { type: 'ephemeral'; ttl?: '5m' | '1h' } | null };

/** A prompt-caching breakpoint as the chat core carries it (on text, image and file parts, and on tools), only its known fields. */
function cacheControlOf(block: Cacheable): Record<string, unknown> {
  const control = block.cache_control;
  return control ? { cache_control: { type: 'ephemeral', ...(control.ttl ? { ttl: control.ttl } : {}) } } : {};
}

function copy(body: Record<string, unknown>, field: string, value: unknown): void {
  if (value !== undefined && value !== null) body[field] = value;
}
