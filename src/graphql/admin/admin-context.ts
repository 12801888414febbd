import type { SpendAdmin } from '../../admin/spend-admin';
import type { AccountStore } from '../../keys/account-store';
import type { KeyStore } from '../../keys/key-store';
import type { Logger } from '../../observability/logger';

/** What the admin GraphQL resolves with: the same services as the admin REST routes. */
export interface AdminServices {
  spend: SpendAdmin;
  accounts: AccountStore;
  keys: KeyStore;
}

/** One admin operation (the admin token was checked before it ran). */
export interface AdminGraphqlContext {
  requestId: string;
  logger: Logger;
  admin: AdminServices;
}
