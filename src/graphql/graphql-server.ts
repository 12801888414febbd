import type { Server } from 'node:http';
import type { Express, RequestHandler } from 'express';
import type { GatewayServices } from '../gateway';

export interface GraphqlServer {
  start(): Promise<void>;
  stop(): Promise<void>;
}

/** Placeholder until the GraphQL layer lands. */
export function mountGraphql(_app: Express, _httpServer: Server, _services: GatewayServices, _jsonBody: RequestHandler): GraphqlServer {
  return { start: async () => undefined, stop: async () => undefined };
}
