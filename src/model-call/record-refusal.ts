import type { UsageTicket } from '../billing/usage-ticket';
import { Errors } from '../errors/errors';
import type { GatewayError } from '../errors/gateway-error';
import type { Logger } from '../observability/logger';
import { toGatewayError } from './to-gateway-error';

/**
 * A request that ended in an error before its service settled the usage
 * record: the record is written now, uncharged, with the status and code the
 * client is told. Returns that error (an unknown one is `internal_error`,
 * logged with its stack). Both doors end their failed requests here.
 */
export async function recordRefusal(ticket: UsageTicket | undefined, err: unknown, logger: Logger): Promise<GatewayError> {
  let gatewayError = toGatewayError(err);
  if (!gatewayError) {
    logger.error('unhandled error', { request_id: ticket?.requestId, err });
    gatewayError = Errors.internal();
  }
  if (ticket && !ticket.isSettled) {
    await ticket.fail(gatewayError.status, gatewayError.code).catch((e) => logger.error('usage record failed', { request_id: ticket.requestId, err: e }));
  }
  return gatewayError;
}
