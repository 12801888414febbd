import type { SearchTimeRange } from './search-adapter';

/**
 * Small readings shared by the search adapters: where a result comes from,
 * whether it is inside a domain list, how `site:` operators express domain
 * filters for protocols without native ones, a score for protocols that give
 * only a rank, and the many ways backends write a publication date.
 */

/** A URL's host, lower-case and without a leading `www.`; empty when the URL cannot be read. */
export function hostOf(url: string): string {
  try {
    return bareDomain(new URL(url).hostname);
  } catch {
    return '';
  }
}

/**
 * Whether a URL is on one of the domains; a domain covers its subdomains
 * (`example.com` covers `news.example.com`), case does not matter, and
 * `www.` is ignored on both sides. An empty list contains nothing.
 */
export function inDomains(url: string, domains: readonly string[]): boolean {
  const host = hostOf(url);
  if (!host) return false;
  return domains.some((domain) => {
    const bare = bareDomain(domain);
    return bare !== '' && (host === bare || host.endsWith(`.${bare}`));
  });
}

/**
 * Domain filters as search operators, for protocols without native ones:
 * `(site:a.com OR site:b.com) -site:c.com`. Empty when there is no filter.
 * @see https://developers.google.com/search/docs/monitor-debug/search-operators/all-search-site
 */
export function siteOperators(include: readonly string[], exclude: readonly string[]): string {
  const sites = include.map((d) => `site:${bareDomain(d)}`);
  const wanted = sites.length > 1 ? `(${sites.join(' OR ')})` : (sites[0] ?? '');
  return [wanted, ...exclude.map((d) => `-site:${bareDomain(d)}`)].filter(Boolean).join(' ');
}

/** The query with the domain filters appended as `site:` operators. */
export function withSiteOperators(query: string, include: readonly string[], exclude: readonly string[]): string {
  const operators = siteOperators(include, exclude);
  return operators ? `${query} ${operators}` : query;
}

/** A relevance score from rank, for protocols that give none: 1 for the first of `count`, then evenly down, always above 0. */
export function rankScore(index: number, count: number): number {
  return Math.max(count - index, 1) / Math.max(count, 1);
}

const DAY_MS = 86_400_000;
const UNIT_MS: Record<string, number> = {
  second: 1000,
  minute: 60_000,
  hour: 3_600_000,
  day: DAY_MS,
  week: 7 * DAY_MS,
  month: 30 * DAY_MS,
  year: 365 * DAY_MS,
};
const UNIT_ALIASES: Record<string, string> = { sec: 'second', min: 'minute', hr: 'hour' };
const RELATIVE = /^(\d+|an?|one)\s+(second|sec|minute|min|hour|hr|day|week|month|year)s?\s+ago$/i;
/** A date that says its zone: `Z`, `GMT`, `UTC` or an offset at the end. */
const ZONED = /(?:Z|GMT|UTC|[+-]\d{2}:?\d{2})$/i;

/**
 * A publication date as ISO 8601, from what backends write: ISO dates (a
 * date-time without a zone is taken as UTC, not as the server's local time),
 * HTTP dates (`Tue, 12 Mar 2024 08:00:00 GMT`), plain ones (`Mar 12, 2024`,
 * read as UTC), and relative ones (`2 hours ago`, `3 days ago`, `1 week ago`,
 * `yesterday`; a month is 30 days, a year 365). Null when it cannot be read:
 * text without a four-digit year is not taken as absolute, since `Date.parse`
 * alone reads "-3" as March 2001.
 */
export function publishedAt(text: string | null | undefined, now = Date.now()): string | null {
  const value = text?.trim();
  if (!value) return null;
  const time = relativeTime(value, now) ?? absoluteTime(value);
  return Number.isFinite(time) && new Date(time).getUTCFullYear() >= 1900 ? new Date(time).toISOString() : null;
}

function relativeTime(text: string, now: number): number | undefined {
  if (/^yesterday$/i.test(text)) return now - DAY_MS;
  const match = RELATIVE.exec(text);
  if (!match) return undefined;
  const count = /^\d+$/.test(match[1]) ? Number(match[1]) : 1;
  const unit = match[2].toLowerCase();
  return now - count * UNIT_MS[UNIT_ALIASES[unit] ?? unit];
}

function absoluteTime(text: string): number {
  if (!/\d{4}/.test(text)) return NaN;
  if (ZONED.test(text)) return Date.parse(text);
  if (/^\d{4}-\d{2}-\d{2}T/.test(text)) return Date.parse(`${text}Z`);
  return Date.parse(`${text} UTC`);
}

/** When a time range starts, counted back from `now` in calendar terms (a month back from 31 March is 2 or 3 March). */
export function timeRangeStart(range: SearchTimeRange, now = Date.now()): Date {
  const start = new Date(now);
  if (range === 'day') start.setUTCDate(start.getUTCDate() - 1);
  else if (range === 'week') start.setUTCDate(start.getUTCDate() - 7);
  else if (range === 'month') start.setUTCMonth(start.getUTCMonth() - 1);
  else start.setUTCFullYear(start.getUTCFullYear() - 1);
  return start;
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

/**
 * Text out of an HTML fragment (Brave's `<strong>` highlights, an error page
 * from a proxy): tags dropped, the common entities decoded, white space
 * collapsed.
 */
export function plainText(html: string): string {
  return html
    .replace(/<(script|style)\b[^>]*>[\s\S]*?<\/\1>/gi, ' ')
    .replace(/<[^>]*>/g, '')
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (entity, name: string) => decodeEntity(name) ?? entity)
    .replace(/\s+/g, ' ')
    .trim();
}

function decodeEntity(name: string): string | undefined {
  if (name[0] !== '#') return ENTITIES[name.toLowerCase()];
  const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
  return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : undefined;
}

/**
 * A text on one line in at most `max` characters, for snippets and quoted
 * errors: white space collapsed, and `…` at the end when cut (never inside
 * a surrogate pair).
 */
export function clip(text: string, max: number): string {
  const line = text.replace(/\s+/g, ' ').trim();
  if (line.length <= max) return line;
  let end = max - 1;
  const last = line.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end -= 1;
  return `${line.slice(0, end).trimEnd()}…`;
}

function bareDomain(domain: string): string {
  return domain
    .trim()
    .toLowerCase()
    .replace(/^[a-z][a-z0-9+.-]*:\/\//, '')
    .replace(/[/?#].*$/, '')
    .replace(/:\d+$/, '')
    .replace(/^(?:\*\.|www\.)/, '')
    .replace(/\.$/, '');
}
