import type { InputItem, ResponsesRequest } from './responses-request-schema';

/** An input item as `GET /v1/responses/{id}/input_items` lists it: typed, with an id. */
export type ListedInputItem = Record<string, unknown> & { id: string; type: string };

/** OpenAI's id prefixes by item type; an item of another type gets `item_`. */
const ID_PREFIXES: Record<string, string> = { message: 'msg', function_call: 'fc', function_call_output: 'fco', reasoning: 'rs' };

/**
 * The client's `input` as items, the way a continuation replays it: a
 * string is one user message. Nothing else changes, so the upstream gets
 * what the client would have sent itself.
 */
export function inputAsItems(input: ResponsesRequest['input']): InputItem[] {
  return typeof input === 'string' ? [{ role: 'user', content: input }] : input;
}

/**
 * The client's `input` in the shape OpenAI lists it: every item typed,
 * message text as content parts, and an id on each item that had none.
 * The ids are made from the response's id and the item's place, so every
 * read of the list gives the same ones (the `after` and `before` cursors
 * name them) while the stored input stays as the client sent it.
 * @see https://platform.openai.com/docs/api-reference/responses/input-items
 */
export function listedInputItems(responseId: string, input: ResponsesRequest['input']): ListedInputItem[] {
  const base = responseId.replace(/^resp_/, '');
  return inputAsItems(input).map((raw, index) => {
    const item = raw as Record<string, unknown>;
    const type = typeof item.type === 'string' ? item.type : 'message';
    const listed: Record<string, unknown> = { ...item, type };
    if (type === 'message' && typeof item.content === 'string') {
      const text = { type: item.role === 'assistant' ? 'output_text' : 'input_text', text: item.content };
      listed.content = [item.role === 'assistant' ? { ...text, annotations: [] } : text];
    }
    if (typeof item.id !== 'string' || item.id === '') listed.id = `${ID_PREFIXES[type] ?? 'item'}_${base}_${index}`;
    return listed as ListedInputItem;
  });
}
