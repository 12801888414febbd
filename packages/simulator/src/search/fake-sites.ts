/**
 * The made-up web that fake search results live on: a few plausible hosts
 * under reserved example domains (RFC 2606), each with a name and a folder
 * for its pages. A host outside the pool (a domain a search was restricted
 * to) gets a name made from its own labels.
 */
export interface FakeSite {
  host: string;
  name: string;
  /** The first path segment of its pages. */
  section: string;
}

export const SITE_POOL: readonly FakeSite[] = [
  { host: 'docs.example.com', name: 'Example Docs', section: 'guides' },
  { host: 'news.example.org', name: 'Example News', section: 'articles' },
  { host: 'blog.example.net', name: 'Example Blog', section: 'posts' },
  { host: 'wiki.example.com', name: 'Example Wiki', section: 'wiki' },
  { host: 'www.example.edu', name: 'Example University', section: 'research' },
  { host: 'forum.example.io', name: 'Example Forum', section: 'threads' },
];

/** The host of `[sim offsite]`'s result: never inside any restriction a test would make. */
export const OFFSITE_HOST = 'offsite.example.invalid';

export const POOL_HOSTS: readonly string[] = SITE_POOL.map((site) => site.host);

export function siteFor(host: string): FakeSite {
  return SITE_POOL.find((site) => site.host === host) ?? { host, name: nameFromHost(host), section: 'pages' };
}

/** `www.acme-tools.co.uk` -> `Acme Tools`: the longest label that is not `www` or a short suffix. */
function nameFromHost(host: string): string {
  const labels = host.split('.').filter((label) => label !== 'www');
  const main = labels.reduce((best, label) => (label.length > best.length ? label : best), '') || host;
  return main
    .split('-')
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join(' ');
}
