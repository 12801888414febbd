/**
 * Domain restrictions, the same way for every search protocol: a domain
 * covers itself and its subdomains (`example.com` takes `docs.example.com`,
 * not `badexample.com`), every include list narrows the search further
 * (`include_domains` and `site:` operators both apply), and an excluded
 * domain is never answered from.
 */
export interface DomainRestriction {
  /** Each non-empty list is one condition: a host must be under one of its domains. */
  includeLists: string[][];
  exclude: string[];
}

/** `https://Docs.Example.com/path` -> `docs.example.com`: what a user may write, as a host to compare with. */
export function normalizeDomain(written: string): string {
  return written
    .trim()
    .toLowerCase()
    .replace(/^[a-z][a-z0-9+.-]*:\/\//, '')
    .replace(/^\*\./, '')
    .replace(/[/?#:].*$/, '')
    .replace(/\.$/, '');
}

export function isUnderDomain(host: string, domain: string): boolean {
  return host === domain || host.endsWith(`.${domain}`);
}

export function restrictionAllows(restriction: DomainRestriction, host: string): boolean {
  return (
    restriction.includeLists.every((list) => list.some((domain) => isUnderDomain(host, domain))) &&
    !restriction.exclude.some((domain) => isUnderDomain(host, domain))
  );
}

/**
 * The hosts a search may answer from: the usual pool when nothing is
 * required, otherwise the required domains themselves and the pool's hosts
 * under them, so that a search restricted to a site the pool lacks still
 * finds results there. Excluded hosts are dropped either way.
 */
export function allowedHosts(restriction: DomainRestriction, pool: readonly string[]): string[] {
  const required = restriction.includeLists.flat();
  const candidates = required.length === 0 ? pool : [...new Set([...pool.filter((host) => required.some((domain) => isUnderDomain(host, domain))), ...required])];
  return candidates.filter((host) => restrictionAllows(restriction, host));
}
