import { z } from 'zod';
import { isWellFormedId } from '../db/well-formed-id';
import { Errors } from '../errors/errors';
import { GatewayError } from '../errors/gateway-error';
import { parseRequest } from '../errors/parse-request';
import { domainNameSchema } from '../keys/domain-name';
import { mcpToolPatternSchema } from '../keys/mcp-tool-scope';
import { UnknownAccountError, type ApiKeyView, type KeyStore } from '../keys/key-store';

const modelsSchema = z.array(z.string().min(1).max(256)).max(1000);
const allowedDomainsSchema = z.array(domainNameSchema).max(100);
/** MCP tool names or patterns (`weather__*`); null: every tool, `[]`: none. */
const mcpToolsSchema = z.array(mcpToolPatternSchema).max(200).nullable();

export const createKeySchema = z.object({
  name: z.string().trim().min(1).max(200),
  models: modelsSchema.optional(),
  expires_at: z.iso.datetime({ offset: true }).optional(),
  account_id: z.string().min(1).max(128).optional(),
  project: z.string().trim().min(1).max(200).optional(),
  member: z.string().trim().min(1).max(200).optional(),
  /** Search result domains the key may receive; left out: every domain. */
  allowed_domains: allowedDomainsSchema.optional(),
  /** MCP tools the key may use through /mcp; left out or null: every tool. */
  mcp_tools: mcpToolsSchema.optional(),
});

export const updateKeySchema = z
  .strictObject({
    /** The models the key may use; `[]` or null: every model. */
    models: modelsSchema.nullable().optional(),
    /** The key's search domain allowlist; `[]` or null: every domain. */
    allowed_domains: allowedDomainsSchema.nullable().optional(),
    /** MCP tools the key may use; null: every tool, `[]`: none. */
    mcp_tools: mcpToolsSchema.optional(),
  })
  .refine((change) => change.models !== undefined || change.allowed_domains !== undefined || change.mcp_tools !== undefined, 'The change names nothing: send "models", "allowed_domains", "mcp_tools" or several');

/** A key as it is created: its view, and its secret, shown this once. */
export type CreatedKey = ApiKeyView & { key: string };

/**
 * The operator's API keys, for both admin doors (REST under /api/admin/keys
 * and the admin GraphQL): request bodies in the REST shape are validated
 * here, so both refuse alike. Revocations and changes reach every instance
 * through the key store.
 */
export class KeyAdmin {
  constructor(private readonly keys: KeyStore) {}

  /** Creates a key; the secret is in the answer, once. */
  async create(body: unknown): Promise<CreatedKey> {
    const input = parseRequest(createKeySchema, body);
    const expiresAt = input.expires_at ? new Date(input.expires_at) : null;
    if (expiresAt && expiresAt.getTime() <= Date.now()) throw Errors.validation('expires_at', 'must be in the future.');
    try {
      const { key, view } = await this.keys.create({
        name: input.name, models: input.models, expiresAt, accountId: input.account_id, project: input.project, member: input.member, allowedDomains: input.allowed_domains, mcpTools: input.mcp_tools,
      });
      return { ...view, key };
    } catch (err) {
      if (err instanceof UnknownAccountError) throw new GatewayError('account_not_found', `No account "${err.accountId}".`, { param: 'account_id' });
      throw err;
    }
  }

  /** Every key (the first 1,000, newest first). */
  list(): Promise<ApiKeyView[]> {
    return this.keys.list();
  }

  /** Changes what can change of a key: its models and its search domain allowlist; a field left out stays as it is. */
  async update(id: string, body: unknown): Promise<ApiKeyView> {
    const input = parseRequest(updateKeySchema, body);
    const change = {
      ...(input.models !== undefined && { models: input.models ?? [] }),
      ...(input.allowed_domains !== undefined && { allowedDomains: input.allowed_domains ?? [] }),
      ...(input.mcp_tools !== undefined && { mcpTools: input.mcp_tools }),
    };
    const view = isWellFormedId(id) ? await this.keys.update(id, change) : null;
    if (!view) throw keyNotFound(id);
    return view;
  }

  /** Revokes a key and its temporary credentials; revoking a revoked key answers it as it is. */
  async revoke(id: string): Promise<ApiKeyView> {
    const view = isWellFormedId(id) ? await this.keys.revoke(id) : null;
    if (!view) throw keyNotFound(id);
    return view;
  }
}

function keyNotFound(id: string): GatewayError {
  return new GatewayError('key_not_found', `No API key "${id}".`);
}
