import { GatewayError } from '../errors/gateway-error';
import type { OverloadGuard } from '../http/overload-guard';

/** A running operation's places: `release()` gives them back, and may be called more than once. */
export interface OperationPlace {
  release(): void;
}

/**
 * Who may start a graphql-ws operation: each running operation holds a
 * place in the overload guard the REST requests pass (503
 * `gateway_overloaded` over GATEWAY_MAX_CONCURRENCY, `gateway_shutting_down`
 * while draining), and one key holds at most `maxPerKey` of them on this
 * instance (429 `too_many_subscriptions`; 0 for no limit).
 */
export class OperationAdmission {
  private readonly openByKey = new Map<string, number>();

  constructor(
    private readonly guard: Pick<OverloadGuard, 'admitOperation'>,
    private readonly maxPerKey: number,
  ) {}

  admit(keyId: string): OperationPlace | GatewayError {
    const open = this.openByKey.get(keyId) ?? 0;
    if (this.maxPerKey > 0 && open >= this.maxPerKey) {
      return new GatewayError(
        'too_many_subscriptions',
        `This API key already has ${open} GraphQL operations open over graphql-ws, the most it may have. Complete or unsubscribe one before starting another.`,
        { details: { maximum: this.maxPerKey } },
      );
    }
    const place = this.guard.admitOperation();
    if (place instanceof GatewayError) return place;
    this.openByKey.set(keyId, open + 1);
    let released = false;
    return {
      release: () => {
        if (released) return;
        released = true;
        place.release();
        const left = (this.openByKey.get(keyId) ?? 1) - 1;
        if (left > 0) this.openByKey.set(keyId, left);
        else this.openByKey.delete(keyId);
      },
    };
  }
}
