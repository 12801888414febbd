import { GatewayError } from '../errors/gateway-error';
import type { ResolvedSearchBackend, SearchOptionRules } from '../providers/search/search-adapter';

/**
 * The client's `provider_options` for one backend (its object under the
 * backend's id, else under its provider type), checked against the
 * backend's rules: a priced option or one the backend does not allow is a
 * 400 `invalid_parameter` naming it, before any hold or upstream call.
 * @returns the options to pass on (undefined when the client gave none)
 */
export function checkedProviderOptions(
  given: Record<string, Record<string, unknown>> | undefined,
  backend: ResolvedSearchBackend,
  rules: SearchOptionRules,
): Record<string, unknown> | undefined {
  const key = given?.[backend.id] !== undefined ? backend.id : backend.type;
  const options = given?.[key];
  if (options === undefined) return undefined;
  const param = (name: string) => `provider_options.${key}.${name}`;
  for (const name of Object.keys(options)) {
    const why = rules.priced[name];
    if (why !== undefined) {
      throw new GatewayError('invalid_parameter', `"${param(name)}" is not passed to ${backend.name}: ${why}. Nothing was sent; leave it out.`, { param: param(name) });
    }
  }
  const parsed = rules.allowed.safeParse(options);
  if (parsed.success) return parsed.data as Record<string, unknown>;
  const issue = parsed.error.issues[0]!;
  if (issue.code === 'unrecognized_keys') {
    const name = issue.keys[0]!;
    const allowed = Object.keys(rules.allowed.shape);
    throw new GatewayError('invalid_parameter', `"${param(name)}" is not an option the gateway passes to ${backend.name}; it passes ${allowed.length ? allowed.join(', ') : 'none'}.`, { param: param(name) });
  }
  const name = issue.path.join('.');
  throw new GatewayError('invalid_parameter', `"${param(name)}": ${issue.message}.`, { param: param(name) });
}
