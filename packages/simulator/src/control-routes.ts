import type { SimulatorContext } from './context';
import type { Route } from './routing';
import { sendJson } from './send';

/**
 * `GET /_sim/requests[?limit=N]` returns what the simulator received
 * (`{requests, received, aborted}`, see request-log.ts); `DELETE` starts the
 * log and its counters afresh. Not part of any provider's API.
 */
export function controlRoutes(context: SimulatorContext): Route[] {
  return [
    {
      method: 'GET',
      path: /^\/_sim\/requests$/,
      internal: true,
      handle: async ({ res, query }) => sendJson(res, 200, context.requestLog.snapshot(parseLimit(query.get('limit')))),
    },
    {
      method: 'DELETE',
      path: /^\/_sim\/requests$/,
      internal: true,
      handle: async ({ res }) => {
        context.requestLog.clear();
        res.writeHead(204).end();
      },
    },
  ];
}

function parseLimit(raw: string | null): number | undefined {
  return raw !== null && /^\d+$/.test(raw) ? Number(raw) : undefined;
}
