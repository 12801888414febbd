import { hostWithin } from './domain-name';

/**
 * What a temporary credential may use is the intersection of its own list
 * and its parent key's list as it stands now, never the parent's list at
 * minting: a parent narrowed later narrows its credentials with it. For
 * both lists null means "no restriction"; an empty set means nothing is left.
 */

/** The model ids or route names both lists allow. */
export function intersectModels(own: ReadonlySet<string> | null, parent: ReadonlySet<string> | null): ReadonlySet<string> | null {
  if (!own) return parent;
  if (!parent) return own;
  return new Set([...own].filter((model) => parent.has(model)));
}

/** The domains both allowlists cover (a domain covers its subdomains, so the narrower of two nested domains is kept). */
export function intersectDomains(own: ReadonlySet<string> | null, parent: ReadonlySet<string> | null): ReadonlySet<string> | null {
  if (!own) return parent;
  if (!parent) return own;
  const both = new Set<string>();
  for (const mine of own) {
    for (const theirs of parent) {
      if (hostWithin(mine, theirs)) both.add(mine);
      else if (hostWithin(theirs, mine)) both.add(theirs);
    }
  }
  return both;
}
