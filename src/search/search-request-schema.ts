import { z } from 'zod';
import { domainNameSchema } from '../keys/domain-name';

/** The most results a request may name; each backend clips to its own policy (hosted: 10). */
export const MAX_REQUESTED_RESULTS = 1000;
export const DEFAULT_RESULTS = 10;

/** A region or language hint: `us`, `de`, `en`, `pt-BR`. */
const localeHint = z.string().regex(/^[A-Za-z]{2,3}(?:[-_][A-Za-z0-9]{2,8})?$/, 'must be a code such as "us", "en" or "pt-BR"');

/** `POST /v1/search`: one query, with every field of the spec. */
export const searchRequestSchema = z.object({
  query: z.string().trim().min(1, 'must not be empty').max(2000, 'must be at most 2000 characters'),
  type: z.enum(['web', 'news']).default('web'),
  /** `auto`, a provider name (`tavily`, `serper`, `exa`, `searxng`, `brave`), or a configured backend id or name. */
  backend: z.string().min(1).max(100).default('auto'),
  region: localeHint.optional(),
  language: localeHint.optional(),
  time_range: z.enum(['day', 'week', 'month', 'year']).optional(),
  max_results: z.number().int().min(1).max(MAX_REQUESTED_RESULTS, `must be at most ${MAX_REQUESTED_RESULTS} (results are clipped to the backend's own limit)`).default(DEFAULT_RESULTS),
  search_depth: z.enum(['basic', 'advanced']).default('basic'),
  include_answer: z.boolean().default(false),
  include_raw_content: z.boolean().default(false),
  include_domains: z.array(domainNameSchema).max(100).default([]),
  exclude_domains: z.array(domainNameSchema).max(100).default([]),
  include_provider_payload: z.boolean().default(false),
  /** Objects by provider name (or backend id); only the selected backend's is passed on. */
  provider_options: z.record(z.string().max(100), z.record(z.string(), z.unknown())).optional(),
});

export type SearchRequest = z.infer<typeof searchRequestSchema>;
