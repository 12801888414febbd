import { GatewayError } from '../errors/gateway-error';

/**
 * What a native `/v1/messages` route (every candidate an Anthropic channel)
 * sends to its upstream: only the fields below, so that nothing the gateway
 * neither prices nor owns reaches the operator's Anthropic account. An
 * unknown field is dropped, as chat drops its unknown fields; a field that
 * would cost money the gateway does not bill or names state kept on the
 * upstream account is refused by name with a 400 before any upstream call.
 * @see https://docs.anthropic.com/en/api/messages
 */

/** Top-level fields forwarded as the client sent them (`metadata` rebuilt: only its scoped `user_id`). */
const FORWARDED_FIELDS = [
  'messages', 'max_tokens', 'system', 'stop_sequences', 'temperature', 'top_p', 'top_k', 'tools', 'tool_choice', 'thinking', 'output_config', 'service_tier',
] as const;

/** What `count_tokens` takes of the same request. */
const COUNTED_FIELDS = ['messages', 'system', 'tools', 'tool_choice', 'thinking', 'output_config'] as const;

const REFUSED_FIELDS: Record<string, string> = {
  mcp_servers: 'connects the upstream to remote MCP servers, whose tool use this gateway neither bills nor attributes. Run the tools yourself as custom tools',
  container: 'names a code-execution container kept on the upstream account. Send the request without it',
};

/**
 * Service tiers: `standard_only` is the standard price; `auto` lets the
 * upstream serve the call at its Priority Tier, at prices the catalog does
 * not hold. Left out, the call goes at standard capacity.
 */
const SERVED_TIERS = new Set(['standard_only']);

/**
 * `anthropic-beta` values forwarded: features that change no price and keep
 * no state upstream. Betas that change prices (the 1M-token context window)
 * or use the upstream account's state (files, MCP, skills, code execution)
 * are refused by name; any other is dropped, as an unknown field is.
 */
const FORWARDED_BETAS = [/^interleaved-thinking-/, /^fine-grained-tool-streaming-/, /^token-efficient-tools-/, /^output-128k-/, /^structured-outputs-/, /^effort-/];
const REFUSED_BETAS: Array<[RegExp, string]> = [
  [/^context-1m-/, 'bills a long prompt at prices the catalog does not hold'],
  [/^(files-api|mcp-client|skills|code-execution|container)-/, 'uses state or tools on the upstream account'],
];

/** The body a native route forwards (the model is the adapter's to set): allowlisted fields, the end user's id scoped to the key. */
export function nativeMessagesBody(raw: Record<string, unknown>, scoped: (value: string) => string, counting = false): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const field of counting ? COUNTED_FIELDS : FORWARDED_FIELDS) if (raw[field] !== undefined) body[field] = raw[field];
  const userId = (raw.metadata as { user_id?: unknown } | undefined)?.user_id;
  if (!counting && typeof userId === 'string' && userId !== '') body.metadata = { user_id: scoped(userId) };
  return body;
}

/** A 400 `unsupported_parameter` for what a native route will not forward: thrown before any upstream call and any hold. */
export function checkNativeServable(raw: Record<string, unknown>): void {
  for (const [field, why] of Object.entries(REFUSED_FIELDS)) {
    if (raw[field] !== undefined && raw[field] !== null) throw refuse(field, why);
  }
  const tier = raw.service_tier;
  if (tier !== undefined && !(typeof tier === 'string' && SERVED_TIERS.has(tier))) {
    throw refuse('service_tier', `asks for a service tier the catalog does not price. Send "standard_only", or leave it out`);
  }
}

/** The betas a native route sends, from the request's `anthropic-beta` header(s); a refused one is a 400 naming it. */
export function forwardedBetas(header: string | string[] | undefined): string[] {
  const asked = (Array.isArray(header) ? header.join(',') : (header ?? '')).split(',').map((b) => b.trim()).filter(Boolean);
  for (const beta of asked) {
    const refused = REFUSED_BETAS.find(([pattern]) => pattern.test(beta));
    if (refused) throw new GatewayError('unsupported_parameter', `The beta "${beta}" (anthropic-beta) ${refused[1]}; this gateway does not serve it. Send the request without it.`, { param: 'anthropic-beta' });
  }
  return [...new Set(asked.filter((beta) => FORWARDED_BETAS.some((pattern) => pattern.test(beta))))];
}

function refuse(param: string, why: string): GatewayError {
  return new GatewayError('unsupported_parameter', `"${param}" ${why}.`, { param });
}
