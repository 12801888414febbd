import { paidServiceTier } from '../billing/service-tier';
import { GatewayError } from '../errors/gateway-error';
import type { InputItem, ResponsesRequest } from './responses-request-schema';
import { isMcpTool, MCP_TOOLS_NOT_NATIVE } from '../providers/mcp/mcp-tools-elsewhere';

/**
 * What a native `/v1/responses` route sends to its upstream (OpenAI and xAI
 * routes both speak the OpenAI Responses protocol): only the fields below,
 * so that nothing the gateway neither prices nor owns reaches the
 * operator's upstream account. An unknown field is dropped, as chat and
 * embeddings drop theirs; a field that would cost money the gateway does not
 * bill, or that names state kept on the upstream account (which this
 * gateway never records, since every response carries the gateway's own id),
 * is refused by name with a 400 before any upstream call.
 * `previous_response_id` names a response the gateway keeps itself: the
 * service resolves it (stored-responses.ts) and never forwards it as sent.
 */

/** Top-level fields forwarded as the client sent them (files already dereferenced in `input`). */
const FORWARDED_FIELDS = [
  'model', 'input', 'instructions', 'tools', 'tool_choice', 'parallel_tool_calls', 'max_output_tokens', 'max_tool_calls',
  'temperature', 'top_p', 'top_logprobs', 'truncation', 'stream', 'stream_options', 'reasoning', 'text', 'metadata', 'service_tier', 'include',
  'prompt_cache_retention',
] as const;

/** Identities of the client's end users and cache groups: forwarded, each replaced by the key's namespaced value. */
export const END_USER_FIELDS = ['user', 'safety_identifier', 'prompt_cache_key'] as const;

/** Fields naming state on the upstream account; the gateway cannot tell which key created it, so it lends none. */
const UPSTREAM_STATE_FIELDS: Record<string, string> = {
  conversation: 'names a conversation stored on the upstream account; conversations are not stored there. Send the earlier items in "input" instead',
  prompt: 'names a prompt template stored on the upstream account. Send "instructions" and "input" yourself',
  background: 'runs a response stored on the upstream account; responses are not stored there. Send the request without "background" (stream it for long answers)',
};

/** Service tiers billed like the default one; a paid tier is served only where the catalog prices it (billing/service-tier.ts). */
const UNPAID_SERVICE_TIERS = new Set(['auto', 'default']);

/** What `include` may ask for: output of the model itself, never results of hosted tools. */
const INCLUDABLE = new Set(['reasoning.encrypted_content', 'message.output_text.logprobs']);

/** Input items the gateway reads; `item_reference` and the items of hosted tools are refused. */
const FORWARDED_ITEMS = new Set(['message', 'reasoning', 'function_call', 'function_call_output']);

/**
 * The upstream body of a native route: the allowlisted fields of the client's
 * request (checked by `checkNativeServable`), `input` as dereferenced,
 * end-user identities scoped by `scoped`, and `store` false unless the
 * operator lets the upstream store responses.
 */
export function nativeRequestBody(
  raw: Record<string, unknown>,
  input: ResponsesRequest['input'],
  options: { scoped: (value: string) => string; upstreamStore: boolean },
): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const field of FORWARDED_FIELDS) if (raw[field] !== undefined) body[field] = raw[field];
  for (const field of END_USER_FIELDS) {
    const value = raw[field];
    if (typeof value === 'string' && value !== '') body[field] = options.scoped(value);
  }
  body.input = input;
  if (!options.upstreamStore) body.store = false;
  else if (raw.store !== undefined) body.store = raw.store;
  return body;
}

/**
 * A 400 `unsupported_parameter` naming a field that costs money the gateway
 * does not bill (a service tier `tierPriced` denies, a hosted tool) or names
 * state on the upstream account: thrown before any upstream call and any hold.
 */
export function checkNativeServable(req: ResponsesRequest, tierPriced: (tier: string) => boolean): void {
  const refuse = (param: string, message: string) => new GatewayError('unsupported_parameter', `"${param}" ${message}.`, { param });
  const fields = req as Record<string, unknown>;
  for (const [field, why] of Object.entries(UPSTREAM_STATE_FIELDS)) {
    const value = fields[field];
    if (value !== undefined && value !== null && value !== false) throw refuse(field, why);
  }
  const tier = fields.service_tier;
  if (tier !== undefined && tier !== null && !(typeof tier === 'string' && (UNPAID_SERVICE_TIERS.has(tier) || (paidServiceTier(tier) !== undefined && tierPriced(tier))))) {
    throw refuse('service_tier', `asks for a service tier the catalog does not price for "${req.model}". Send "auto" or "default", or leave it out`);
  }
  for (const [index, tool] of (req.tools ?? []).entries()) {
    if (isMcpTool(tool)) throw refuse(`tools[${index}].type`, MCP_TOOLS_NOT_NATIVE);
    if (tool.type !== 'function') throw refuse(`tools[${index}].type`, `"${tool.type}" is a hosted tool, which this gateway does not serve. Declare a function tool and run it yourself`);
  }
  const choice = req.tool_choice;
  if (choice && typeof choice === 'object' && choice.type !== 'function') {
    throw refuse('tool_choice', `forces "${choice.type}", which this gateway does not serve. Name a function tool, or send "auto", "required" or "none"`);
  }
  for (const [index, included] of (req.include ?? []).entries()) {
    if (!INCLUDABLE.has(included)) throw refuse(`include[${index}]`, `asks for "${included}", results of a hosted tool or stored input this gateway does not serve. Include only ${[...INCLUDABLE].map((v) => `"${v}"`).join(' or ')}`);
  }
  if (typeof req.input === 'string') return;
  for (const [index, item] of req.input.entries()) {
    const type = itemType(item);
    if (type === 'item_reference') throw refuse(`input[${index}].type`, 'names an item stored on the upstream account; items are not stored there. Send the item itself');
    if (!FORWARDED_ITEMS.has(type)) throw refuse(`input[${index}].type`, `"${type}" belongs to a hosted tool this gateway does not serve. Send messages, reasoning, function calls and their outputs only`);
  }
}

function itemType(item: InputItem): string {
  return (item as { type?: string }).type ?? 'message';
}
