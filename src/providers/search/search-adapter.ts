import type { z } from 'zod';
import type { UpstreamScope } from '../http-client';

/**
 * One web search protocol (Tavily, Serper, Exa, SearXNG, Brave). The gateway
 * has already chosen the backend, clipped the result count and worked out
 * which domains the search is restricted to; an adapter expresses that in
 * its protocol, calls the backend once, and turns the answer into the
 * gateway's results. Errors are thrown as UpstreamError (retryable when
 * another backend may do better); nothing here knows about routing, keys or
 * billing.
 */

export const SEARCH_BACKEND_TYPES = ['tavily', 'serper', 'exa', 'searxng', 'brave'] as const;
export type SearchBackendType = (typeof SEARCH_BACKEND_TYPES)[number];

/** A configured search backend ready to call: where, with which credential. */
export interface ResolvedSearchBackend {
  /** The configured id (`tavily`, `my-searx`, ...). */
  id: string;
  name: string;
  type: SearchBackendType;
  /** Without a trailing slash: `https://api.tavily.com`, `https://google.serper.dev`, `https://search.example.org`. */
  baseUrl: string;
  /** Empty for backends that take none (a private SearXNG). */
  apiKey: string;
  /** Time allowed for the whole call. */
  timeoutMs: number;
  /** The most results this backend is asked for (its policy; hosted: 10). */
  maxResults: number;
  headers: Record<string, string>;
  simulated: boolean;
}

export type SearchTimeRange = 'day' | 'week' | 'month' | 'year';

/** The search asked of one backend. */
export interface SearchCall extends UpstreamScope {
  backend: ResolvedSearchBackend;
  query: string;
  /** `news` goes to the backend's news endpoint or topic. */
  type: 'web' | 'news';
  /** Already clipped to the backend's policy; at least 1. */
  maxResults: number;
  region?: string;
  language?: string;
  timeRange?: SearchTimeRange;
  searchDepth: 'basic' | 'advanced';
  includeAnswer: boolean;
  includeRawContent: boolean;
  /**
   * Only results from these domains (a domain also covers its subdomains);
   * empty means no restriction. Native filters where the protocol has them,
   * otherwise `site:` operators in the query. The gateway drops any result
   * outside them afterwards either way.
   */
  includeDomains: string[];
  /** Results from these domains are not wanted (native filter or `-site:` operators). */
  excludeDomains: string[];
  /** The client's `provider_options` object for this backend, already checked against the adapter's `options`; the gateway's own fields go over it. */
  providerOptions?: Record<string, unknown>;
}

/** One result in the gateway's shape (spec: Search result). */
export interface SearchHit {
  title: string;
  url: string;
  snippet: string;
  /** The page's text, only when raw content was asked for and the backend returned it. */
  content: string | null;
  /** ISO 8601, when the backend gave a date that can be read. */
  published_at: string | null;
  /** Higher is more relevant; the backend's own score, or one derived from rank. */
  score: number;
  /** Who published the result: the backend's source name, or the URL's host. */
  source: string;
}

export interface SearchAnswer {
  results: SearchHit[];
  /** The backend's own answer, when asked for and given; the gateway never writes one. */
  answer: string | null;
  /** Units the backend bills for this query (Tavily: 1 basic, 2 advanced, or what it reported; others 1). */
  billableUnits: number;
  /** The backend's answer as received (parsed JSON), for `include_provider_payload`. */
  payload: unknown;
}

/** What a protocol can do; selection reads it to pick and to explain its pick. */
export interface SearchCapabilities {
  /** A provider-written answer (`include_answer`). */
  answer: boolean;
  /** `search_depth: advanced`. */
  advancedDepth: boolean;
  /** Page text in the results (`include_raw_content`). */
  rawContent: boolean;
  region: boolean;
  language: boolean;
  timeRange: boolean;
}

/**
 * The `provider_options` a protocol passes on to its backend, all in one
 * place: every other option is refused before any call. An option is allowed
 * only when it leaves what the backend bills for the query to its unit rule
 * (`SearchAnswer.billableUnits`), or that rule counts it.
 */
export interface SearchOptionRules {
  /** The options allowed and the values each may take: a strict object, so any other option fails it. */
  allowed: z.ZodObject;
  /** Options the backend bills beyond the query's units (more pages, summaries, a dearer search), with why they are refused. */
  priced: Readonly<Record<string, string>>;
}

export interface SearchAdapter {
  type: SearchBackendType;
  capabilities: SearchCapabilities;
  options: SearchOptionRules;
  search(call: SearchCall): Promise<SearchAnswer>;
}
