import { GatewayError } from '../errors/gateway-error';
import { hostWithin } from '../keys/domain-name';
import type { Principal } from '../keys/principal';
import type { SearchHit } from '../providers/search/search-adapter';

/** The domains a search may return results from and those it must not. */
export interface DomainScope {
  /** Empty: any domain. */
  include: string[];
  exclude: string[];
}

/**
 * What a search is restricted to: the client's `include_domains`, narrowed
 * to the key's (or temporary credential's) allowlist, which always applies:
 * with no `include_domains` the search is restricted to the allowlist
 * itself. Asking only for domains outside the allowlist is a 403.
 */
export function domainScope(principal: Principal, include: string[], exclude: string[]): DomainScope {
  const allowed = principal.allowedDomains ? [...principal.allowedDomains] : null;
  if (!allowed) return { include: unique(include), exclude: unique(exclude) };
  // A temporary credential whose parent's allowlist no longer covers any domain of its own may search nothing.
  if (!allowed.length) {
    throw new GatewayError('domain_not_allowed', "This credential's search allowlist and its parent key's current one share no domain: it may not search. Mint a new credential within the key's allowlist.", {
      details: { allowed_domains: allowed },
    });
  }
  if (!include.length) return { include: allowed, exclude: unique(exclude) };
  const within = include.filter((d) => allowed.some((a) => hostWithin(d, a)));
  if (!within.length) {
    throw new GatewayError('domain_not_allowed', `"include_domains" names only domains outside this key's search allowlist (${allowed.join(', ')}); ask for domains within it, or leave "include_domains" out.`, {
      param: 'include_domains', details: { allowed_domains: allowed },
    });
  }
  return { include: unique(within), exclude: unique(exclude) };
}

/** Drops the results outside the scope, whatever the backend did with the restriction. */
export function withinScope(hits: SearchHit[], scope: DomainScope): SearchHit[] {
  if (!scope.include.length && !scope.exclude.length) return hits;
  return hits.filter((hit) => {
    const host = hostOf(hit.url);
    if (host === undefined) return false;
    if (scope.include.length && !scope.include.some((d) => hostWithin(host, d))) return false;
    return !scope.exclude.some((d) => hostWithin(host, d));
  });
}

function hostOf(url: string): string | undefined {
  try {
    return new URL(url).hostname || undefined;
  } catch {
    return undefined;
  }
}

function unique(domains: string[]): string[] {
  return [...new Set(domains)];
}
