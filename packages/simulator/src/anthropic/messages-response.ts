import { randomAlphanumericId } from '../ids';
import type { MessagesAnswer } from './messages-answer';
import type { MessagesUsage } from './messages-usage';

/**
 * The whole `message` object, field for field as api.anthropic.com sends it.
 * @see https://docs.anthropic.com/en/api/messages
 */

/** What the whole answer and each of its stream events share. */
export interface MessageIdentity {
  id: string;
  model: string;
}

export function messageIdentity(model: string): MessageIdentity {
  return { id: randomAlphanumericId('msg_01', 22), model };
}

export function messageBody(identity: MessageIdentity, answer: MessagesAnswer, usage: MessagesUsage): object {
  return {
    id: identity.id,
    type: 'message',
    role: 'assistant',
    model: identity.model,
    content: answer.content,
    stop_reason: answer.stopReason,
    stop_sequence: answer.stopSequence,
    usage,
  };
}
