import { isWellFormedId } from '../db/well-formed-id';
import { Errors } from '../errors/errors';
import { GatewayError } from '../errors/gateway-error';
import type { Principal } from '../keys/principal';
import { inputItemsPage, type InputItemsPage, type InputItemsQuery } from './input-items-page';
import type { ResponseStore, StoredResponse } from './response-store';
import type { InputItem } from './responses-request-schema';
import { inputAsItems, listedInputItems, type ListedInputItem } from './stored-input-items';

/** How many earlier responses a continuation may replay; a longer chain is cut there, as if its older links had expired. */
export const MAX_CHAIN_LENGTH = 1000;

/** What a request with `previous_response_id` continues. */
export interface Continuation {
  previousResponseId: string;
  /** Every earlier turn's input items then output items, oldest turn first: what the upstream gets before the new input. */
  replayed: InputItem[];
  /** The previous response's own id on the upstream and the provider channel that holds it, when the upstream stored it. */
  upstream: { id: string; provider: string } | null;
}

/**
 * The responses the gateway keeps, as their owner sees them: retrieve,
 * delete, list the input items, and continue one with
 * `previous_response_id`. Only the key that created a response finds it;
 * for any other key (and for an expired, deleted or unknown id) it does not
 * exist.
 */
export class StoredResponses {
  constructor(readonly store: ResponseStore) {}

  /** The response object as it was answered. */
  async retrieve(principal: Principal, id: string): Promise<Record<string, unknown>> {
    return (await this.findOwned(principal, id)).response;
  }

  async delete(principal: Principal, id: string): Promise<{ id: string; object: 'response'; deleted: true }> {
    checkResponseId(id, 'response_id');
    if (!(await this.store.delete(principal.keyId, id))) throw responseNotFound(id);
    return { id, object: 'response', deleted: true };
  }

  async inputItems(principal: Principal, id: string, query: InputItemsQuery): Promise<InputItemsPage<ListedInputItem>> {
    const stored = await this.findOwned(principal, id);
    return inputItemsPage(listedInputItems(stored.id, stored.input), query);
  }

  /** The chain `previousId` ends, to replay; 400 `previous_response_not_found` when the key has no such response or a link of it is gone. */
  async continuation(principal: Principal, previousId: string): Promise<Continuation> {
    checkResponseId(previousId, 'previous_response_id');
    const chain = await this.store.chain(principal.keyId, previousId, MAX_CHAIN_LENGTH);
    const oldest = chain[0];
    if (!oldest) throw previousResponseNotFound(previousId);
    if (oldest.previousResponseId !== null) throw previousResponseNotFound(oldest.previousResponseId);
    const head = chain[chain.length - 1]!;
    return {
      previousResponseId: previousId,
      replayed: chain.flatMap((turn) => [...inputAsItems(turn.input), ...outputItemsOf(turn)]),
      upstream: head.upstreamResponseId ? { id: head.upstreamResponseId, provider: head.provider } : null,
    };
  }

  private async findOwned(principal: Principal, id: string): Promise<StoredResponse> {
    checkResponseId(id, 'response_id');
    const stored = await this.store.find(principal.keyId, id);
    if (!stored) throw responseNotFound(id);
    return stored;
  }
}

function outputItemsOf(turn: StoredResponse): InputItem[] {
  const output = turn.response.output;
  return Array.isArray(output) ? (output as InputItem[]) : [];
}

/** A response id is `resp_` and the gateway's id characters; anything else is a malformed request, refused without a lookup. */
function checkResponseId(id: string, param: string): void {
  if (!id.startsWith('resp_') || !isWellFormedId(id)) {
    throw Errors.validation(param, `is not a response id ("${id.slice(0, 128)}"): expected an id that begins with "resp_".`);
  }
}

/** OpenAI's message for an id it does not have; the gateway's for one another key created is the same. */
function responseNotFound(id: string): GatewayError {
  return new GatewayError('response_not_found', `Response with id '${id}' not found.`, { param: 'response_id' });
}

/** OpenAI's answer to a `previous_response_id` it does not have, in the gateway's envelope. */
function previousResponseNotFound(id: string): GatewayError {
  return new GatewayError('previous_response_not_found', `Previous response with id '${id}' not found.`, { param: 'previous_response_id' });
}
