import { hashString } from '../deterministic-random';
import { generateWords } from '../generated-text';
import { siteFor } from './fake-sites';

/**
 * The text of a made-up web page, as plain text and as markdown, from its
 * title and topic: what a search returns as raw content and what extract
 * or contents endpoints return for a URL. Same seed, same page.
 */
export interface FakePage {
  title: string;
  /** One or two sentences about the topic: a search result's snippet. */
  summary: string;
  text: string;
  markdown: string;
}

const BODY_PARAGRAPH_WORDS = 70;

export function fakePage(title: string, topic: string, seed: number): FakePage {
  const summary = `${capitalize(topic)}: ${generateWords(seed, 22, 'page')}`;
  const paragraphs = [generateWords(seed + 1, BODY_PARAGRAPH_WORDS, 'page'), generateWords(seed + 2, BODY_PARAGRAPH_WORDS, 'page')];
  return {
    title,
    summary,
    text: [title, summary, ...paragraphs].join('\n\n'),
    markdown: [`# ${title}`, summary, `## ${capitalize(topic)} in detail`, ...paragraphs].join('\n\n'),
  };
}

/**
 * The page at a URL, for extract and contents requests: its topic read from
 * the last path segment (`/guides/rust-async-2` -> `rust async`), or the
 * host's name for a home page. Undefined for a page no one could fetch: a
 * URL that is not http(s), or a host under `.invalid` (RFC 2606), which
 * never resolves.
 */
export function fakePageAt(url: string): FakePage | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  if ((parsed.protocol !== 'http:' && parsed.protocol !== 'https:') || /\.invalid$/i.test(parsed.hostname)) return undefined;
  const site = siteFor(parsed.hostname.toLowerCase());
  const lastSegment = parsed.pathname.split('/').filter(Boolean).pop() ?? '';
  const topic = decodeSafely(lastSegment).replace(/\.[a-z0-9]+$/i, '').replace(/[-_+]+/g, ' ').replace(/\s\d+$/, '').trim() || site.name;
  return fakePage(`${capitalize(topic)} - ${site.name}`, topic, hashString(url));
}

export function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function decodeSafely(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
