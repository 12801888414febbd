import { createHmac } from 'node:crypto';
import { type GeminiError, invalidArgument } from './errors';
import { type GenerateContentRequest, isUserInput } from './generate-request';

/**
 * Thought signatures, the reasoning state a thinking model attaches to its
 * first function call, which the client must send back on that same part.
 * The simulator's signature is an HMAC of the call (name and arguments) under
 * a fixed secret, so it can tell a signature it issued for this call from a
 * missing, altered or misplaced one. As the real API does, it checks only the
 * current turn: the model steps since the user last wrote something.
 * @see https://ai.google.dev/gemini-api/docs/thought-signatures
 */
const SIGNING_SECRET = 'model-gateway simulator: gemini thought signatures';

export function signFunctionCall(name: string, args: unknown): string {
  return createHmac('sha256', SIGNING_SECRET).update(`${name}\n${canonicalJson(args ?? {})}`).digest('base64');
}

export function thoughtSignatureError(request: GenerateContentRequest): GeminiError | undefined {
  const { contents } = request;
  const turnStart = contents.findLastIndex(isUserInput) + 1;
  for (let index = turnStart; index < contents.length; index++) {
    const content = contents[index]!;
    if (content.role !== 'model') continue;
    const firstCall = content.parts.find((part) => part.functionCall);
    if (!firstCall?.functionCall) continue;
    const { name = '', args } = firstCall.functionCall;
    if (firstCall.thoughtSignature === undefined) return missingSignature(name, index + 1);
    if (firstCall.thoughtSignature !== signFunctionCall(name, args)) return invalidArgument('Corrupted thought signature.');
  }
  return undefined;
}

function missingSignature(name: string, position: number): GeminiError {
  return invalidArgument(
    'Function call is missing a thought_signature in functionCall parts. This is required for tools to work correctly, ' +
      'and missing thought_signature may lead to degraded model performance. ' +
      `Additional data, function call \`default_api:${name}\` , position ${position}. ` +
      'Please refer to https://ai.google.dev/gemini-api/docs/thought-signatures for more details.',
  );
}

/** JSON with object keys sorted, so that a client re-serializing the arguments in another key order still matches. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
