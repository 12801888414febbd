import { Router, type RequestHandler } from 'express';
import { requireAdminToken } from '../http/auth';
import { methodNotAllowed } from '../http/method-not-allowed';
import type { McpServerAdmin } from './mcp-server-admin';

/**
 * The operator's MCP servers, one catalog edit each: `GET /api/admin/mcp/servers`
 * (with each server's health on this instance), `POST` one, and under
 * `/api/admin/mcp/servers/{name}` read, `PATCH` its fields, switch it on or
 * off (`PATCH .../enabled`), or `DELETE` it.
 */
export function adminMcpServersRouter(servers: McpServerAdmin, adminToken: string | undefined, jsonBody: RequestHandler): Router {
  const router = Router();
  const admin = requireAdminToken(adminToken);

  router
    .route('/api/admin/mcp/servers')
    .get(admin, (_req, res) => {
      res.json({ object: 'list', data: servers.list() });
    })
    .post(admin, jsonBody, async (req, res) => {
      res.status(201).json(await servers.add(req.body));
    })
    .all(methodNotAllowed(['GET', 'POST']));

  router
    .route('/api/admin/mcp/servers/:name')
    .get(admin, (req, res) => {
      res.json(servers.get(String(req.params.name)));
    })
    .patch(admin, jsonBody, async (req, res) => {
      res.json(await servers.update(String(req.params.name), req.body));
    })
    .delete(admin, async (req, res) => {
      res.json(await servers.remove(String(req.params.name)));
    })
    .all(methodNotAllowed(['GET', 'PATCH', 'DELETE']));

  router
    .route('/api/admin/mcp/servers/:name/enabled')
    .patch(admin, jsonBody, async (req, res) => {
      res.json(await servers.setEnabled(String(req.params.name), req.body));
    })
    .all(methodNotAllowed(['PATCH']));

  return router;
}
