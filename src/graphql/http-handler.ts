import { HeaderMap, type ApolloServer, type HTTPGraphQLRequest } from '@apollo/server';
import type { GraphQLFormattedError } from 'graphql';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { locals } from '../http/request-locals';
import { sendJson } from '../http/send-json';
import { toGatewayError } from '../model-call/to-gateway-error';
import { isKeyRefusal, refusalError, unauthenticatedBy, withRequestId } from './errors';

/**
 * Apollo behind express, as an express integration of Apollo runs it, with one
 * difference: Apollo answers some requests by itself before an operation
 * exists (a body that is not a GraphQL request, a `query` that is not a
 * string, a GET with a Content-Type other than JSON, a method it does not
 * serve, an Accept it cannot meet), and formats those errors without the
 * request. Every error of such an answer gets the request id here, as the
 * errors of an operation get it in error-reporting-plugin.ts.
 */
export function apolloHandler<C extends object>(apollo: ApolloServer<C>, context: (res: Response) => Promise<C>): RequestHandler {
  return async (req, res) => {
    const headers = new HeaderMap();
    for (const [name, value] of Object.entries(req.headers)) {
      if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
    }
    const query = req.url.indexOf('?');
    const request: HTTPGraphQLRequest = { method: req.method.toUpperCase(), headers, search: query === -1 ? '' : req.url.slice(query), body: req.body };
    const response = await apollo.executeHTTPGraphQLRequest({ httpGraphQLRequest: request, context: () => context(res) });
    for (const [name, value] of response.headers) res.setHeader(name, value);
    res.statusCode = response.status ?? 200;
    if (response.body.kind === 'complete') {
      res.send(res.statusCode >= 400 ? withRequestIds(response.body.string, locals(res).requestId) : response.body.string);
      return;
    }
    for await (const chunk of response.body.asyncIterator) res.write(chunk);
    res.end();
  };
}

/** An error answer of Apollo's with the request id on each error; anything else as it is. */
function withRequestIds(body: string, requestId: string): string {
  let parsed: { errors?: unknown };
  try {
    parsed = JSON.parse(body) as { errors?: unknown };
  } catch {
    return body;
  }
  if (!parsed || !Array.isArray(parsed.errors)) return body;
  const errors = (parsed.errors as GraphQLFormattedError[]).map((error) => withRequestId(error, requestId));
  return `${JSON.stringify({ ...parsed, errors })}\n`;
}

/**
 * The route's own refusals before Apollo (the API key, the body, a gateway
 * shutting down) as a GraphQL answer: `{"errors": [...]}` with the gateway
 * error's status, code and request id. A missing or invalid key is
 * UNAUTHENTICATED, as GraphQL clients expect. Anything else goes on to the
 * gateway's error handler.
 */
export function graphqlRefusals(err: unknown, _req: Request, res: Response, next: NextFunction): void {
  const refusal = toGatewayError(err);
  if (!refusal || res.headersSent) return next(err);
  const { requestId } = locals(res);
  const error = isKeyRefusal(refusal) ? unauthenticatedBy(refusal, requestId) : refusalError(refusal, requestId);
  if (refusal.options.retryAfterSeconds !== undefined) res.setHeader('Retry-After', String(refusal.options.retryAfterSeconds));
  sendJson(res, refusal.status, { errors: [error.toJSON()] });
}
