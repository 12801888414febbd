import { braveSearchAdapter } from '../brave/brave-search';
import { exaSearchAdapter } from '../exa/exa-search';
import { searxngSearchAdapter } from '../searxng/searxng-search';
import { serperSearchAdapter } from '../serper/serper-search';
import { tavilySearchAdapter } from '../tavily/tavily-search';
import type { SearchAdapter, SearchBackendType } from './search-adapter';

const SEARCH_ADAPTERS: Record<SearchBackendType, SearchAdapter> = {
  tavily: tavilySearchAdapter,
  serper: serperSearchAdapter,
  exa: exaSearchAdapter,
  searxng: searxngSearchAdapter,
  brave: braveSearchAdapter,
};

/** The adapter that speaks a search backend's protocol. */
export function searchAdapterFor(type: SearchBackendType): SearchAdapter {
  return SEARCH_ADAPTERS[type];
}
