import type { AccountAdmin } from '../../admin/account-admin';
import type { KeyAdmin } from '../../admin/key-admin';
import type { McpServerAdmin } from '../../admin/mcp-server-admin';
import type { SpendAdmin } from '../../admin/spend-admin';
import type { Logger } from '../../observability/logger';

/** What the admin GraphQL resolves with: the same services as the admin REST routes. */
export interface AdminServices {
  spend: SpendAdmin;
  accounts: AccountAdmin;
  keys: KeyAdmin;
  mcpServers: McpServerAdmin;
}

/** One admin operation (the admin token was checked before it ran). */
export interface AdminGraphqlContext {
  requestId: string;
  logger: Logger;
  admin: AdminServices;
}
