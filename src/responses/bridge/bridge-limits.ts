import { GatewayError } from '../../errors/gateway-error';
import type { ResponsesRequest } from '../responses-request-schema';
import { decodeReasoningState } from '../../chat/carried-reasoning-state';
import { isMcpTool } from '../../providers/mcp/mcp-tools-elsewhere';

/** Request fields the bridge carries into a chat request; any other field with a value is refused by name. */
const CARRIED_FIELDS = new Set([
  'model', 'input', 'instructions', 'tools', 'tool_choice', 'parallel_tool_calls', 'max_output_tokens', 'temperature', 'top_p',
  'stream', 'store', 'reasoning', 'text', 'metadata', 'user', 'include', 'stream_options', 'prompt_cache_key', 'prompt_cache_retention', 'safety_identifier',
]);

/** Fields whose default value asks for nothing the bridge lacks. */
const HARMLESS_VALUES: Record<string, unknown[]> = { truncation: ['disabled'], service_tier: ['auto', 'default'] };

/** Fields that only mean something to an upstream that keeps state: the bridge keeps none. */
const STATEFUL_FIELDS = ['previous_response_id', 'conversation', 'background'] as const;

const CARRIED_ITEMS = new Set(['message', 'reasoning', 'function_call', 'function_call_output']);

/**
 * The spec's bridge rule: `store: true`, a stateful field or a field the
 * bridge cannot carry is a 400 `protocol_bridge_unsupported`, before any
 * upstream call, so nothing a client asked for is silently dropped.
 */
export function checkBridgeable(req: ResponsesRequest, modelId: string): void {
  const refuse = (param: string, why: string) =>
    new GatewayError('protocol_bridge_unsupported', `"${modelId}" is served through the stateless bridge, which ${why}. ${HINT}`, { param });
  if (req.store === true) throw refuse('store', 'stores nothing: send "store": false or leave it out, and keep the output items yourself');
  for (const field of STATEFUL_FIELDS) {
    if (req[field] !== undefined && req[field] !== null && req[field] !== false) throw refuse(field, `keeps no state and cannot take "${field}"`);
  }
  for (const [field, value] of Object.entries(req)) {
    if (CARRIED_FIELDS.has(field) || value === undefined || value === null || HARMLESS_VALUES[field]?.includes(value)) continue;
    throw refuse(field, `cannot carry "${field}"`);
  }
  for (const [index, tool] of (req.tools ?? []).entries()) {
    // Carried as they are: the chat service runs their tool loop (chat/mcp-tool-loop.ts).
    if (isMcpTool(tool)) continue;
    if (tool.type !== 'function') throw refuse(`tools[${index}].type`, `carries function tools only, not "${tool.type}"`);
  }
  const choice = req.tool_choice;
  if (choice && typeof choice === 'object' && choice.type !== 'function') throw refuse('tool_choice', `cannot force the built-in tool "${choice.type}"`);
  const format = req.text?.format?.type;
  if (format && format !== 'text' && format !== 'json_object' && format !== 'json_schema') throw refuse('text.format', `cannot carry the output format "${format}"`);
  if (typeof req.input === 'string') return;
  for (const [index, item] of req.input.entries()) {
    const type = (item as { type?: string }).type ?? 'message';
    if (!CARRIED_ITEMS.has(type)) throw refuse(`input[${index}].type`, `cannot carry "${type}" items (they refer to state or tools only a native route has)`);
    if (type === 'reasoning') {
      const encrypted = (item as { encrypted_content?: string | null }).encrypted_content;
      if (encrypted && !decodeReasoningState(encrypted)) {
        throw refuse(`input[${index}].encrypted_content`, 'cannot use encrypted reasoning made by another upstream; drop the item or use a native route');
      }
    }
  }
}

const HINT = 'Use a model whose catalog entry lists /v1/responses as native for stateful features.';
