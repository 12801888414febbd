import { GatewayError } from '../errors/gateway-error';
import type { ReasoningDetail } from '../providers/chat-request';
import type { GenerateContentRequest, GeminiRequestContent, GeminiRequestPart } from './generate-content-request-schema';
import { toJsonSchema } from './openapi-schema-to-json-schema';
import { signatureDetails } from './thought-signature-carrier';

type ChatPart = { type: 'text'; text: string } | { type: 'image_url'; image_url: { url: string } } | { type: 'file'; file: { file_data: string } };

interface ChatToolCallDraft {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

interface ChatMessageDraft {
  role: 'system' | 'user' | 'assistant' | 'tool';
  content?: string | ChatPart[] | null;
  tool_calls?: ChatToolCallDraft[];
  tool_call_id?: string;
  reasoning_content?: string;
  reasoning_details?: ReasoningDetail[];
}

/** The target model's reasoning default, which decides what "thinking off" and "dynamic" mean for it (spec 000's families). */
export type ReasoningDefault = 'off' | 'on' | 'always' | undefined;

/**
 * A `generateContent` request as a chat completions request, for a model
 * served by another family (the chat core applies its reasoning rules,
 * routing and usage record):
 * - `systemInstruction` is the system message; `user` contents are user
 *   messages (text, images inline or by https URL, other inline data as a
 *   file), their `functionResponse` parts tool messages first;
 * - `model` contents are assistant turns: text, thought text as
 *   `reasoning_content`, function calls as tool calls, thought signatures
 *   as the reasoning state to send back (thought-signature-carrier.ts);
 * - a call without an `id` (Gemini 2.5 gives none) gets one from its place
 *   (`call_<content>_<part>`), and a response without one answers the
 *   earliest unanswered call of the same name in the turn before it, else
 *   the earliest unanswered one;
 * - `generationConfig` maps field by field, a thinking budget to
 *   `reasoning.max_tokens` and a thinking level to `reasoning.effort`;
 *   `responseSchema` (Gemini's OpenAPI subset) becomes a JSON Schema
 *   `response_format`, as do function `parameters`;
 * - `functionCallingConfig` ANY is `required` (or the one allowed function),
 *   NONE `none`; `safetySettings` have no meaning elsewhere and are dropped.
 */
export function toChatRequest(req: GenerateContentRequest, model: string, options: { stream: boolean; reasoningDefault: ReasoningDefault }): Record<string, unknown> {
  const messages: ChatMessageDraft[] = [];
  if (req.systemInstruction) messages.push({ role: 'system', content: systemText(req.systemInstruction.parts) });
  let pending: ChatToolCallDraft[] = [];
  for (const [c, content] of req.contents.entries()) {
    if (content.role === 'model') {
      const turn = assistantTurn(content, c);
      messages.push(turn);
      pending = [...(turn.tool_calls ?? [])];
    } else {
      messages.push(...userTurn(content, c, pending));
      pending = [];
    }
  }
  const config = req.generationConfig ?? {};
  const declarations = (req.tools ?? []).flatMap((tool) => tool.functionDeclarations ?? []);
  const calling = req.toolConfig?.functionCallingConfig;
  const allowed = calling?.mode === 'ANY' && calling.allowedFunctionNames?.length ? new Set(calling.allowedFunctionNames) : undefined;
  const tools = declarations
    .filter((d) => !allowed || allowed.has(d.name))
    .map((d) => ({
      type: 'function',
      function: {
        name: d.name,
        ...(d.description ? { description: d.description } : {}),
        parameters: d.parametersJsonSchema ?? (d.parameters ? toJsonSchema(d.parameters) : { type: 'object', properties: {} }),
      },
    }));
  return {
    model,
    messages,
    ...(options.stream ? { stream: true, stream_options: { include_usage: true } } : {}),
    ...(tools.length ? { tools } : {}),
    ...(tools.length && calling?.mode ? toolChoice(calling.mode, tools) : {}),
    ...(config.temperature !== undefined ? { temperature: config.temperature } : {}),
    ...(config.topP !== undefined ? { top_p: config.topP } : {}),
    ...(config.topK !== undefined ? { top_k: config.topK } : {}),
    ...(config.maxOutputTokens !== undefined ? { max_completion_tokens: config.maxOutputTokens } : {}),
    ...(config.stopSequences?.length ? { stop: config.stopSequences } : {}),
    ...(config.candidateCount !== undefined && config.candidateCount > 1 ? { n: config.candidateCount } : {}),
    ...(config.seed !== undefined ? { seed: config.seed } : {}),
    ...(config.presencePenalty !== undefined ? { presence_penalty: config.presencePenalty } : {}),
    ...(config.frequencyPenalty !== undefined ? { frequency_penalty: config.frequencyPenalty } : {}),
    ...responseFormat(config),
    ...reasoning(config.thinkingConfig, options.reasoningDefault),
  };
}

function systemText(parts: GeminiRequestPart[]): string {
  return parts.map((part, p) => {
    if (part.text === undefined) throw cannotCarry(`systemInstruction.parts[${p}]`, 'a system instruction of text only');
    return part.text;
  }).join('\n');
}

function assistantTurn(content: GeminiRequestContent, c: number): ChatMessageDraft {
  const turn: ChatMessageDraft = { role: 'assistant', content: null };
  let text = '';
  let reasoningText = '';
  const calls: ChatToolCallDraft[] = [];
  const details: ReasoningDetail[] = [];
  for (const [p, part] of content.parts.entries()) {
    let callId: string | undefined;
    if (part.functionCall) {
      callId = part.functionCall.id ?? derivedCallId(c, p);
      calls.push({ id: callId, type: 'function', function: { name: part.functionCall.name, arguments: JSON.stringify(part.functionCall.args ?? {}) } });
    } else if (part.text !== undefined) {
      if (part.thought) reasoningText += part.text;
      else text += part.text;
    } else {
      throw cannotCarry(`contents[${c}].parts[${p}]`, 'model turns of text, thoughts and function calls');
    }
    if (part.thoughtSignature) details.push(...signatureDetails(part.thoughtSignature, callId));
  }
  if (text || !calls.length) turn.content = text;
  if (calls.length) turn.tool_calls = calls;
  if (reasoningText) turn.reasoning_content = reasoningText;
  if (details.length) turn.reasoning_details = details;
  return turn;
}

/** Tool messages for the turn's function responses, then the user's own parts, if any. */
function userTurn(content: GeminiRequestContent, c: number, pending: ChatToolCallDraft[]): ChatMessageDraft[] {
  const messages: ChatMessageDraft[] = [];
  const parts: ChatPart[] = [];
  for (const [p, part] of content.parts.entries()) {
    const param = `contents[${c}].parts[${p}]`;
    if (part.functionResponse) {
      const call = answeredCall(part.functionResponse, pending);
      if (!call) throw new GatewayError('invalid_parameter', `"${param}.functionResponse" answers no function call of the model turn before it ("${part.functionResponse.name}").`, { param: `${param}.functionResponse` });
      pending.splice(pending.indexOf(call), 1);
      messages.push({ role: 'tool', tool_call_id: call.id, content: JSON.stringify(part.functionResponse.response) });
    } else if (part.text !== undefined) {
      if (!part.thought) parts.push({ type: 'text', text: part.text });
    } else if (part.inlineData) {
      const url = `data:${part.inlineData.mimeType};base64,${part.inlineData.data}`;
      parts.push(part.inlineData.mimeType.startsWith('image/') ? { type: 'image_url', image_url: { url } } : { type: 'file', file: { file_data: url } });
    } else if (part.fileData) {
      if (!(part.fileData.mimeType ?? '').startsWith('image/')) throw cannotCarry(`${param}.fileData`, 'files by URI only when they are images (mimeType image/*); send other files as inlineData');
      parts.push({ type: 'image_url', image_url: { url: part.fileData.fileUri } });
    } else {
      throw cannotCarry(param, 'user parts of text, inline data, image URIs and function responses');
    }
  }
  if (parts.length) messages.push({ role: 'user', content: parts.every((p) => p.type === 'text') ? parts.map((p) => (p as { text: string }).text).join('') : parts });
  return messages;
}

function answeredCall(response: { id?: string; name: string }, pending: ChatToolCallDraft[]): ChatToolCallDraft | undefined {
  if (response.id) return pending.find((call) => call.id === response.id);
  return pending.find((call) => call.function.name === response.name) ?? pending[0];
}

/** A call the client sent back without an id gets the same one on every turn: its place in the conversation. */
function derivedCallId(content: number, part: number): string {
  return `call_${content}_${part}`;
}

function toolChoice(mode: string, tools: Array<{ function: { name: string } }>): Record<string, unknown> {
  if (mode === 'NONE') return { tool_choice: 'none' };
  if (mode !== 'ANY') return { tool_choice: 'auto' };
  return tools.length === 1 ? { tool_choice: { type: 'function', function: { name: tools[0]!.function.name } } } : { tool_choice: 'required' };
}

function responseFormat(config: NonNullable<GenerateContentRequest['generationConfig']>): Record<string, unknown> {
  const mime = config.responseMimeType;
  const schema = config.responseJsonSchema ?? (config.responseSchema ? toJsonSchema(config.responseSchema) : undefined);
  if (mime === undefined || mime === 'text/plain') {
    if (schema) throw cannotCarry('generationConfig.responseSchema', 'a response schema with "responseMimeType": "application/json"');
    return {};
  }
  if (mime !== 'application/json') throw cannotCarry('generationConfig.responseMimeType', 'text/plain or application/json');
  return { response_format: schema ? { type: 'json_schema', json_schema: { name: 'response', schema, strict: false } } : { type: 'json_object' } };
}

/**
 * A thinking budget is `reasoning.max_tokens`, a level `reasoning.effort`,
 * and the chat core's rules decide what the target family makes of them.
 * Budget 0 on a family that does not reason unless asked is already what it
 * does (so nothing is sent); dynamic (-1) there asks for medium effort, and
 * elsewhere is the family's default.
 */
function reasoning(thinking: NonNullable<GenerateContentRequest['generationConfig']>['thinkingConfig'], reasoningDefault: ReasoningDefault): Record<string, unknown> {
  if (!thinking) return {};
  if (thinking.thinkingLevel) return { reasoning: { effort: thinking.thinkingLevel } };
  const budget = thinking.thinkingBudget;
  if (budget === undefined) return {};
  const offUnlessAsked = reasoningDefault === 'off' || reasoningDefault === undefined;
  if (budget === 0) return offUnlessAsked ? {} : { reasoning: { max_tokens: 0 } };
  if (budget === -1) return reasoningDefault === 'off' ? { reasoning: { effort: 'medium' } } : {};
  return { reasoning: { max_tokens: budget } };
}

function cannotCarry(param: string, what: string): GatewayError {
  return new GatewayError('unsupported_parameter', `"${param}" cannot be served on this model, which is reached through the chat core: it carries ${what}.`, { param });
}
