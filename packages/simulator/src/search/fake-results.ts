import { hashString, pickOne, seededRandom } from '../deterministic-random';
import { type DomainRestriction, allowedHosts, normalizeDomain } from './domain-filter';
import { capitalize, fakePage } from './fake-page';
import { OFFSITE_HOST, POOL_HOSTS, siteFor } from './fake-sites';
import { type PublishedWindow, dateInWindow, lastDays } from './published-dates';
import { readQueryOperators } from './query-operators';

/**
 * The results every search protocol dresses in its own shape. They are a
 * function of the query's topic (directives and `site:` operators left out)
 * and of the result's rank, so the same search gives the same results on
 * every protocol, and page two continues page one. Domain restrictions, the
 * query's `site:` operators and the protocol's native lists alike, are
 * honoured; `[sim offsite]` adds one result that ignores them.
 */
export interface FakeSearchRequest {
  /** The query as received: directive blocks and `site:` operators are read out of it here. */
  query: string;
  /** How many results to give (the offsite one aside). */
  count: number;
  /** The rank of the first result, from 0: `(page - 1) * count` for later pages. */
  start?: number;
  /** News: every result is dated, within the last few days unless `published` says otherwise. */
  news?: boolean;
  /** The protocol's native filters (`include_domains`, `includeDomains`...), as written. */
  includeDomains?: readonly string[];
  excludeDomains?: readonly string[];
  /** A time filter: every result is dated inside it. */
  published?: PublishedWindow;
  /** `[sim offsite]`: add a result on `offsite.example.invalid`. */
  offsite?: boolean;
  now: Date;
}

export interface FakeResult {
  title: string;
  url: string;
  host: string;
  siteName: string;
  /** The URL's path, for protocols that show it apart. */
  path: string;
  /** A sentence or two about the topic. */
  snippet: string;
  /** The page's whole text, plain and as markdown. */
  text: string;
  markdown: string;
  publishedAt: Date | undefined;
  author: string | undefined;
  /** In (0, 1], decreasing with rank. */
  score: number;
  /** From 1, counted across pages. */
  position: number;
}

export interface FakeSearch {
  /** The query's own words, without directives and operators. */
  topic: string;
  results: FakeResult[];
}

const FALLBACK_TOPIC = 'web search';
const WEB_TITLES = ['{T}', '{T}: a practical guide', 'Understanding {t}', '{T} explained', 'What to know about {t}', '{T}: frequently asked questions', 'A short history of {t}', '{T}: notes and references'];
const NEWS_TITLES = ['{T}: latest updates', 'New report on {t}', '{T} makes headlines again', 'What changed this week in {t}', 'Experts weigh in on {t}', '{T}: what happens next'];
const AUTHORS = ['Alex Morgan', 'Sam Rivera', 'Jordan Lee', 'Taylor Kim', 'Casey Patel', 'Robin Schmidt'];
const WEB_DATED_SHARE = 0.5;
const WEB_REACH_DAYS = 730;
const NEWS_REACH_DAYS = 3;
const MAX_PATH_WORDS = 6;
/** Scores fall by a share per rank, with a jitter smaller than the step so that they still decrease. */
const TOP_SCORE = 0.98;
const SCORE_DECAY = 0.96;

export function fakeSearch(request: FakeSearchRequest): FakeSearch {
  const operators = readQueryOperators(request.query);
  const topic = operators.topic || FALLBACK_TOPIC;
  const restriction: DomainRestriction = {
    includeLists: [operators.sites, (request.includeDomains ?? []).map(normalizeDomain).filter(Boolean)].filter((list) => list.length > 0),
    exclude: [...operators.excludedSites, ...(request.excludeDomains ?? []).map(normalizeDomain).filter(Boolean)],
  };
  const hosts = allowedHosts(restriction, POOL_HOSTS);
  const start = request.start ?? 0;
  const topicSeed = hashString(topic.toLowerCase());
  const results = hosts.length === 0 ? [] : Array.from({ length: Math.max(0, request.count) }, (_, offset) => fakeResult(request, topic, pickHost(hosts, topicSeed, start + offset), start + offset));
  if (request.offsite) results.splice(Math.min(1, results.length), 0, fakeResult(request, topic, OFFSITE_HOST, start + results.length));
  results.forEach((result, offset) => (result.position = start + offset + 1));
  return { topic, results };
}

/** Hosts in turn from a point the topic chooses, so that results spread over the allowed sites. */
function pickHost(hosts: readonly string[], topicSeed: number, rank: number): string {
  return hosts[(topicSeed + rank) % hosts.length] ?? OFFSITE_HOST;
}

function fakeResult(request: FakeSearchRequest, topic: string, host: string, rank: number): FakeResult {
  const seed = hashString(`${topic.toLowerCase()}\n${host}\n${rank}`);
  const random = seededRandom(seed);
  const site = siteFor(host);
  const title = `${pickOne(random, request.news ? NEWS_TITLES : WEB_TITLES).replace('{T}', capitalize(topic)).replace('{t}', topic)} - ${site.name}`;
  const path = `/${site.section}/${slugOf(topic)}${rank > 0 ? `-${rank + 1}` : ''}`;
  const page = fakePage(title, topic, seed);
  const dated = request.news === true || request.published !== undefined || random() < WEB_DATED_SHARE;
  const window = request.published ?? lastDays(request.news ? NEWS_REACH_DAYS : WEB_REACH_DAYS, request.now);
  return {
    title,
    url: `https://${host}${path}`,
    host,
    siteName: site.name,
    path,
    snippet: page.summary,
    text: page.text,
    markdown: page.markdown,
    publishedAt: dated ? dateInWindow(window, random()) : undefined,
    author: random() < 0.5 ? pickOne(random, AUTHORS) : undefined,
    score: Math.round(TOP_SCORE * SCORE_DECAY ** (rank + random() / 2) * 10_000) / 10_000,
    position: rank + 1,
  };
}

/** `Rust async: runtimes?` -> `rust-async-runtimes`. */
function slugOf(topic: string): string {
  const words = topic.toLowerCase().split(/[^a-z0-9]+/).filter(Boolean).slice(0, MAX_PATH_WORDS);
  return words.length > 0 ? words.join('-') : 'search';
}
