import type { SimulatorContext } from '../context';
import type { Route } from '../routing';
import { braveRoutes } from './brave';
import { exaRoutes } from './exa';
import { searxngRoutes } from './searxng';
import { serperRoutes } from './serper';
import { tavilyRoutes } from './tavily';

/**
 * The web search backends, each under its own prefix (`/tavily`, `/serper`,
 * `/exa`, `/searxng`, `/brave`) so that a gateway points a backend's base
 * URL at `${simulatorUrl}/<type>`. They share one result generator
 * (`fake-results.ts`), so the same query finds the same pages on all five,
 * and read their knobs from the query text, where `[sim on=<protocol>]`
 * keeps a failure to one of them.
 */
export function searchRoutes(context: SimulatorContext): Route[] {
  return [...tavilyRoutes(context), ...serperRoutes(context), ...exaRoutes(context), ...searxngRoutes(context), ...braveRoutes(context)];
}
