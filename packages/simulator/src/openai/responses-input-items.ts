import { type OpenAIError, invalidParameter, missingParameter } from './errors';
import { invalidEncryptedContent, invalidType, itemNotFound, toolCallWithoutOutput, toolOutputWithoutCall } from './responses-errors';
import { filePartError, imagePartError } from './responses-file-inputs';

/**
 * The checks the real API makes on `input` items before the model sees
 * them: each item's shape, the parts each role may send, and the pairing of
 * tool calls with their outputs (a round trip that loses either half is
 * refused, as OpenAI refuses it). Errors name the offending field by its
 * path (`input[2].content[0].file_id`), as OpenAI's do.
 * @see https://platform.openai.com/docs/api-reference/responses/create#responses-create-input
 */

type Fields = { [field: string]: unknown };

const MESSAGE_ROLES = ['user', 'system', 'developer', 'assistant'];
const INPUT_PART_TYPES = ['input_text', 'input_image', 'input_file'];
const ASSISTANT_PART_TYPES = ['output_text', 'refusal'];
/** Encrypted reasoning is a Fernet token; every one starts with its version byte and timestamp, `gAAAAA` in base64. */
const ENCRYPTED_CONTENT_PREFIX = 'gAAAAA';

export function inputItemsError(items: unknown[]): OpenAIError | undefined {
  for (const [index, item] of items.entries()) {
    const error = itemError(item, `input[${index}]`);
    if (error) return error;
  }
  return pairingError(items as Fields[]);
}

function itemError(item: unknown, path: string): OpenAIError | undefined {
  if (typeof item !== 'object' || item === null || Array.isArray(item)) return invalidType(path, 'an object', item);
  const fields = item as Fields;
  switch (fields.type ?? 'message') {
    case 'message':
      return messageError(fields, path);
    case 'reasoning':
      return reasoningError(fields, path);
    case 'function_call':
      return requiredStrings(fields, path, ['call_id', 'name', 'arguments']);
    case 'function_call_output':
      return requiredStrings(fields, path, ['call_id']) ?? toolOutputError(fields.output, `${path}.output`);
    case 'item_reference':
      return itemNotFound(String(fields.id), `${path}.id`);
    default:
      return invalidParameter(
        `${path}.type`,
        `Invalid value: '${String(fields.type)}'. The simulator serves 'message', 'reasoning', 'function_call' and 'function_call_output' items.`,
      );
  }
}

function messageError(fields: Fields, path: string): OpenAIError | undefined {
  const { role, content } = fields;
  if (role === undefined) return missingParameter(`${path}.role`);
  if (typeof role !== 'string' || !MESSAGE_ROLES.includes(role)) {
    return invalidParameter(`${path}.role`, `Invalid value: '${String(role)}'. Supported values are: 'assistant', 'system', 'developer', and 'user'.`);
  }
  if (content === undefined || content === null) return missingParameter(`${path}.content`);
  if (typeof content === 'string') return undefined;
  if (!Array.isArray(content)) return invalidType(`${path}.content`, 'a string or an array of content parts', content);
  const allowed = role === 'assistant' ? ASSISTANT_PART_TYPES : INPUT_PART_TYPES;
  for (const [index, part] of content.entries()) {
    const error = partError(part, `${path}.content[${index}]`, allowed);
    if (error) return error;
  }
  return undefined;
}

/** A tool's output is a string, or input parts like a user turn's. */
function toolOutputError(output: unknown, path: string): OpenAIError | undefined {
  if (output === undefined || output === null) return missingParameter(path);
  if (typeof output === 'string') return undefined;
  if (!Array.isArray(output)) return invalidType(path, 'a string or an array of content parts', output);
  for (const [index, part] of output.entries()) {
    const error = partError(part, `${path}[${index}]`, INPUT_PART_TYPES);
    if (error) return error;
  }
  return undefined;
}

function partError(part: unknown, path: string, allowed: string[]): OpenAIError | undefined {
  if (typeof part !== 'object' || part === null || Array.isArray(part)) return invalidType(path, 'an object', part);
  const fields = part as Fields;
  const type = fields.type;
  if (typeof type !== 'string' || !allowed.includes(type)) {
    const listed = allowed.map((value) => `'${value}'`);
    return invalidParameter(`${path}.type`, `Invalid value: '${String(type)}'. Supported values are: ${listed.slice(0, -1).join(', ')} and ${listed.at(-1)}.`);
  }
  switch (type) {
    case 'input_image':
      return imagePartError(fields, path);
    case 'input_file':
      return filePartError(fields, path);
    case 'refusal':
      return requiredStrings(fields, path, ['refusal']);
    default:
      return requiredStrings(fields, path, ['text']);
  }
}

/** A reasoning item goes back as it came: its summary (required, if empty), and its encrypted content when there is one, unaltered. */
function reasoningError(fields: Fields, path: string): OpenAIError | undefined {
  if (!Array.isArray(fields.summary)) return fields.summary === undefined ? missingParameter(`${path}.summary`) : invalidType(`${path}.summary`, 'an array', fields.summary);
  const encrypted = fields.encrypted_content;
  if (encrypted === undefined || encrypted === null) return undefined;
  if (typeof encrypted === 'string' && encrypted.startsWith(ENCRYPTED_CONTENT_PREFIX)) return undefined;
  return invalidEncryptedContent(String(fields.id ?? 'without an id'), `${path}.encrypted_content`);
}

/** Every output answers an earlier call of the same `call_id`, and every call has its output. */
function pairingError(items: Fields[]): OpenAIError | undefined {
  const calls = new Set<unknown>();
  const answered = new Set<unknown>();
  for (const [index, item] of items.entries()) {
    if (item.type === 'function_call') calls.add(item.call_id);
    if (item.type !== 'function_call_output') continue;
    if (!calls.has(item.call_id)) return toolOutputWithoutCall(String(item.call_id), `input[${index}]`);
    answered.add(item.call_id);
  }
  const unanswered = [...calls].find((callId) => !answered.has(callId));
  return unanswered === undefined ? undefined : toolCallWithoutOutput(String(unanswered));
}

function requiredStrings(fields: Fields, path: string, names: string[]): OpenAIError | undefined {
  for (const name of names) {
    const value = fields[name];
    if (value === undefined || value === null) return missingParameter(`${path}.${name}`);
    if (typeof value !== 'string') return invalidType(`${path}.${name}`, 'a string', value);
  }
  return undefined;
}
