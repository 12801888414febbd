import { z } from 'zod';

/**
 * A host name as search results carry it (labels of letters, digits and
 * hyphens), lowercased: the form of a key's or credential's search domain
 * allowlist and of a search's `include_domains`/`exclude_domains`. A domain
 * covers its subdomains.
 */
export const domainNameSchema = z
  .string()
  .max(253)
  .regex(/^(?=.{1,253}$)([a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$/, 'must be a host name such as example.com')
  .transform((d) => d.toLowerCase());

/** Whether `host` is `domain` or one of its subdomains. */
export function hostWithin(host: string, domain: string): boolean {
  const h = host.toLowerCase().replace(/\.$/, '');
  return h === domain || h.endsWith(`.${domain}`);
}
