import { GatewayError } from '../errors/gateway-error';

/** The refusal of an account id that names no account, alike on every admin operation and door. */
export function accountNotFound(id: string): GatewayError {
  return new GatewayError('account_not_found', `No account "${id}". GET /api/admin/accounts lists them.`);
}
