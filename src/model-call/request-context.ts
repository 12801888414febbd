import type { CallSpend } from '../billing/call-spend';
import type { UsageTicket } from '../billing/usage-ticket';
import type { Principal } from '../keys/principal';
import type { Span } from '@opentelemetry/api';
import type { Logger } from '../observability/logger';

/** What a capability service needs to know about the request it serves, whichever door (REST, GraphQL) it came through. */
export interface RequestContext {
  requestId: string;
  principal: Principal;
  /** Aborted when the client goes away, so upstream calls stop too. */
  signal: AbortSignal;
  /** The request's one usage record. */
  ticket: UsageTicket;
  /** The call's spend control: the hold placed before its upstream call (accounts under spend control), which its record ends. */
  spend: CallSpend;
  logger: Logger;
  /** The request's span while traces are on: upstream attempts and the record write are its children. */
  span?: Span;
}
