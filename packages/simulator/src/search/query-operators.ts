import { stripDirectives } from '../directives';
import { normalizeDomain } from './domain-filter';

/** What a search query asks for once its operators are read out of it. */
export interface QueryOperators {
  /** The query's own words: no directive blocks, no `site:` operators, no parentheses. */
  topic: string;
  /** `site:` domains: results must be on one of them (an empty list restricts nothing). */
  sites: string[];
  /** `-site:` domains: results must be on none of them. */
  excludedSites: string[];
}

const SITE = /^site:(.+)$/i;
const NOT_SITE = /^-site:(.+)$/i;

/**
 * Reads the `site:` operators every engine understands in the query text:
 * `site:a.com`, `-site:a.com`, and the either-of form
 * `(site:a.com OR site:b.com)`. The operators, the `OR`s that join them and
 * their parentheses are not what the query is about, so they leave the
 * topic; an `OR` between two plain words stays.
 */
export function readQueryOperators(query: string): QueryOperators {
  const tokens = stripDirectives(query).replace(/[()]/g, ' ').split(/\s+/).filter(Boolean);
  const isOperator = (token: string | undefined) => token !== undefined && (SITE.test(token) || NOT_SITE.test(token));
  const sites: string[] = [];
  const excludedSites: string[] = [];
  const words: string[] = [];
  tokens.forEach((token, index) => {
    const excluded = NOT_SITE.exec(token);
    const included = SITE.exec(token);
    if (excluded?.[1]) excludedSites.push(normalizeDomain(excluded[1]));
    else if (included?.[1]) sites.push(normalizeDomain(included[1]));
    else if (!(token === 'OR' && (isOperator(tokens[index - 1]) || isOperator(tokens[index + 1])))) words.push(token);
  });
  return { topic: words.join(' '), sites: sites.filter(Boolean), excludedSites: excludedSites.filter(Boolean) };
}
