import type { RequestListener, Server } from 'node:http';
import type { Express, Router } from 'express';
import { adminAccountsRouter } from '../admin/admin-accounts-router';
import { adminCatalogRouter } from '../admin/admin-catalog-router';
import { adminKeysRouter } from '../admin/admin-keys-router';
import { adminMcpServersRouter } from '../admin/admin-mcp-servers-router';
import { adminSpendRouter } from '../admin/admin-spend-router';
import { adminUsageRouter } from '../admin/admin-usage-router';
import { chatRoute } from '../chat/chat-router';
import type { GatewayEnv } from '../config/env';
import { consoleRouter } from '../console-route/console-router';
import { credentialsRouter } from '../credentials/credentials-router';
import { DECISION_UNIQUE_IDS } from '../decisions/decision-unique-ids';
import { decisionsRoute } from '../decisions/decisions-router';
import { embeddingsRoute } from '../embeddings/embeddings-router';
import { filesRouter } from '../files/files-router';
import { generateContentRoutes } from '../generate-content/generate-content-router';
import { mountAdminGraphql } from '../graphql/admin/admin-graphql';
import { mountGraphql } from '../graphql/graphql-server';
import { buildRequestListener } from '../http/app';
import { requireApiKey, requireMetricsToken } from '../http/auth';
import type { DirectRoute } from '../http/direct-routes';
import type { Middleware } from '../http/http-types';
import { jsonBody as jsonBodyReader } from '../http/json-body';
import { messagesRoutes } from '../messages/messages-router';
import type { ModelCallDeps } from '../http/model-call-route';
import type { OverloadGuard } from '../http/overload-guard';
import { modelsRouter } from '../models/models-router';
import { livenessRouter, opsRouter, type HealthChecks } from '../observability/health-router';
import { responsesRoute } from '../responses/responses-router';
import { storedResponsesRouter } from '../responses/stored-responses-router';
import { searchRoute } from '../search/search-router';
import { mcpRoute } from '../mcp/mcp-router';
import { protectedResourceMetadataRouter } from '../mcp/protected-resource-metadata';
import { ModelCallGate } from '../model-call/model-call-gate';
import { spendTotalsRouter } from '../usage/spend-totals-router';
import { usageRouter } from '../usage/usage-router';
import { videosRouter } from '../videos/videos-router';
import type { GatewayServices } from './services';

/** What the doors share besides the services: the listener's HTTP server and plumbing, and the gateway's state. */
export interface DoorPlumbing {
  env: GatewayEnv;
  httpServer: Server;
  guard: OverloadGuard;
  health: HealthChecks;
  /** True once the gateway is shutting down. */
  isDraining: () => boolean;
}

/** A door that comes up after it is mounted and ends at shutdown, before the listener closes (GraphQL's server and graphql-ws). */
export interface StartedDoor {
  name: string;
  start(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * One door onto the services: what it adds to the one request listener,
 * each part in its place (see http/app.ts), and what it starts.
 */
interface Door {
  /** Routers that need no API key (health, admin with its own token, the console). */
  open?: Router[];
  /** Routers behind the API key. */
  authenticated?: Router[];
  /** Model-call endpoints, served before express. */
  direct?: DirectRoute[];
  /** Mounted on the express app after the overload guard, before the API-key routers (it checks keys itself). */
  mount?: (app: Express) => StartedDoor;
}

/** The plumbing a door is built with: the shared parts once, so a door is one line below. */
interface DoorParts extends DoorPlumbing {
  apiKey: Middleware;
  /** The request body reader with the gateway's body limit. */
  jsonBody: Middleware;
  /** Admin writes are commands: only a body declared JSON is one (never a form or text/plain sent across sites). */
  adminJsonBody: Middleware;
  /** What every model-call route needs. */
  calls: ModelCallDeps;
}

/**
 * Every door of the gateway on one request listener: the OpenAI-shaped
 * REST API, the Gemini API's dialect, `/api/*`, the admin API, GraphQL (with graphql-ws on the same
 * server), the admin GraphQL, the console and the health routes. A new
 * door is one line in `doors` below, its services taken from the root's.
 */
export function mountDoors(s: GatewayServices, plumbing: DoorPlumbing): { listener: RequestListener; started: StartedDoor[] } {
  const { env } = plumbing;
  const jsonBody = jsonBodyReader(env.GATEWAY_MAX_BODY_BYTES);
  const parts: DoorParts = {
    ...plumbing,
    apiKey: requireApiKey(s.authenticator),
    jsonBody,
    adminJsonBody: jsonBodyReader(env.GATEWAY_MAX_BODY_BYTES, { jsonContentTypeOnly: true }),
    calls: { recorder: s.recorder, logger: s.logger, jsonBody, idempotency: s.idempotency, rateLimits: s.rateLimits },
  };
  const doors: Door[] = [
    healthDoor(s, parts),
    adminRestDoor(s, parts),
    // The web console's page and assets; its API calls carry the key pasted into it.
    { open: [consoleRouter()] },
    openaiRestDoor(s, parts),
    geminiDoor(s, parts),
    messagesDoor(s, parts),
    mcpDoor(s, parts),
    graphqlDoor(s, parts),
    adminGraphqlDoor(s, parts),
  ];
  const started: StartedDoor[] = [];
  const listener = buildRequestListener({
    logger: s.logger, metrics: s.metrics, tracing: s.tracing, guard: plumbing.guard, logRequests: env.LOG_REQUESTS,
    open: doors.flatMap((d) => d.open ?? []),
    authenticated: doors.flatMap((d) => d.authenticated ?? []),
    direct: doors.flatMap((d) => d.direct ?? []),
    requireApiKey: parts.apiKey,
    extra: doors.flatMap((d) => (d.mount ? [(app: Express) => void started.push(d.mount!(app))] : [])),
  });
  return { listener, started };
}

/** /healthz, and /readyz and /metrics on the public listener unless the ops listener serves them (then /metrics is open there). */
function healthDoor(s: GatewayServices, { env, health }: DoorParts): Door {
  const onPublicPort = env.GATEWAY_OPS_PORT === undefined;
  return { open: [livenessRouter(), ...(onPublicPort ? [opsRouter(health, s.metrics, requireMetricsToken([env.GATEWAY_METRICS_TOKEN, env.GATEWAY_ADMIN_TOKEN]))] : [])] };
}

/** The admin API under /api/admin, behind the admin token. */
function adminRestDoor(s: GatewayServices, { env, adminJsonBody }: DoorParts): Door {
  const token = env.GATEWAY_ADMIN_TOKEN;
  return {
    open: [
      adminKeysRouter(s.keyAdmin, token, adminJsonBody),
      adminAccountsRouter(s.accountAdmin, token, adminJsonBody),
      adminCatalogRouter(s.catalogSync, token, adminJsonBody),
      adminMcpServersRouter(s.mcpServerAdmin, token, adminJsonBody),
      adminUsageRouter(s.spend, token),
      adminSpendRouter(s.spendAdmin, token, adminJsonBody),
    ],
  };
}

/** The OpenAI-shaped REST API (/v1) and the gateway's own /api routes, behind an API key. */
function openaiRestDoor(s: GatewayServices, { env, jsonBody, calls }: DoorParts): Door {
  return {
    authenticated: [
      modelsRouter(s.catalog),
      videosRouter(s.videos, s.recorder, s.logger, jsonBody, s.idempotency, s.rateLimits),
      usageRouter(s.usage),
      spendTotalsRouter(s.spend),
      filesRouter(s.files, { store: s.idempotency, logger: s.logger }),
      storedResponsesRouter(s.storedResponses),
      credentialsRouter(s.credentials, jsonBody),
    ],
    direct: [
      chatRoute(s.chat, calls),
      responsesRoute(s.responses, calls),
      embeddingsRoute(s.embeddings, calls),
      searchRoute(s.search, calls),
      decisionsRoute(s.decisions, { ...calls, jsonBody: jsonBodyReader(env.GATEWAY_MAX_BODY_BYTES, { uniqueKeys: DECISION_UNIQUE_IDS }) }),
    ],
  };
}

/** The Gemini API's dialect under /v1beta/models, for the Google Gen AI SDK, behind an API key (`x-goog-api-key` or `?key=`). */
function geminiDoor(s: GatewayServices, { calls }: DoorParts): Door {
  return { direct: generateContentRoutes(s.generateContent, s.catalog, calls) };
}

/** Anthropic's Messages API (/v1/messages, /v1/messages/count_tokens) for every chat model, in Anthropic's shapes. */
function messagesDoor(s: GatewayServices, { calls }: DoorParts): Door {
  return { direct: messagesRoutes(s.messages, calls) };
}

/** MCP's Streamable HTTP transport at /mcp (the operator's MCP servers' tools), and its protected resource metadata. */
function mcpDoor(s: GatewayServices, { env, jsonBody, calls }: DoorParts): Door {
  const publicUrl = env.GATEWAY_PUBLIC_URL;
  return {
    open: [protectedResourceMetadataRouter(publicUrl)],
    direct: [mcpRoute(s.mcp, { gate: new ModelCallGate(calls), jsonBody, logger: s.logger, publicUrl, allowedOrigins: env.GATEWAY_MCP_ALLOWED_ORIGINS })],
  };
}

/** /graphql over HTTP and graphql-ws, for API keys. */
function graphqlDoor(s: GatewayServices, { env, httpServer, guard, apiKey, isDraining }: DoorParts): Door {
  return {
    mount: (app) => ({
      name: 'GraphQL',
      ...mountGraphql(app, httpServer, s, jsonBodyReader(env.GATEWAY_GRAPHQL_MAX_BODY_BYTES), {
        taskUpdates: s.taskUpdates, isDraining, requireApiKey: apiKey, guard,
        maxMessageBytes: env.GATEWAY_MAX_BODY_BYTES, maxSubscriptionsPerKey: env.GATEWAY_MAX_SUBSCRIPTIONS_PER_KEY, introspection: env.GATEWAY_GRAPHQL_INTROSPECTION,
      }),
    }),
  };
}

/** /api/admin/graphql, behind the admin token. */
function adminGraphqlDoor(s: GatewayServices, { env }: DoorParts): Door {
  return {
    mount: (app) => ({
      name: 'admin GraphQL',
      ...mountAdminGraphql(app, { spend: s.spendAdmin, accounts: s.accountAdmin, keys: s.keyAdmin, mcpServers: s.mcpServerAdmin }, s.logger, env.GATEWAY_ADMIN_TOKEN, jsonBodyReader(env.GATEWAY_GRAPHQL_MAX_BODY_BYTES)),
    }),
  };
}
