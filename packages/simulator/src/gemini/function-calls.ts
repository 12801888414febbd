import { hashString, seededRandom } from '../deterministic-random';
import { type JsonValue, sampleJsonSchema } from '../json-schema-sample';
import { type FunctionDeclaration, type GenerateContentRequest, functionDeclarations, lastContent } from './generate-request';
import { openApiToJsonSchema } from './openapi-schema';

/**
 * Which functions a simulated Gemini model calls, and with what arguments.
 * With functions declared it answers the user with calls, as a tool-using
 * agent would, unless the mode is `NONE`; once the last turn carries
 * function results it answers in text. `allowedFunctionNames` limits the
 * choice; then the function the user named comes first, else the first one.
 * @see https://ai.google.dev/gemini-api/docs/function-calling#function_calling_modes
 */
export interface GeneratedFunctionCall {
  name: string;
  args: { [key: string]: JsonValue };
}

export function functionsToCall(request: GenerateContentRequest, userText: string, count: number): FunctionDeclaration[] {
  const config = request.toolConfig?.functionCallingConfig;
  if (config?.mode === 'NONE' || lastContent(request).parts.some((part) => part.functionResponse)) return [];
  const allowed = Array.isArray(config?.allowedFunctionNames) && config.allowedFunctionNames.length ? config.allowedFunctionNames : undefined;
  const candidates = functionDeclarations(request).filter((declaration) => !allowed || allowed.includes(declaration.name));
  const text = userText.toLowerCase();
  const chosen = candidates.find((declaration) => text.includes(declaration.name.toLowerCase())) ?? candidates[0];
  if (!chosen) return [];
  return [chosen, ...candidates.filter((declaration) => declaration !== chosen)].slice(0, count);
}

/** `prompt` is what the user wrote, directives removed: arguments such as a query or a city may come from it. */
export function generateFunctionCall(declaration: FunctionDeclaration, seed: number, prompt: string): GeneratedFunctionCall {
  const schema = declaration.parametersJsonSchema ?? openApiToJsonSchema(declaration.parameters);
  const args = schema === undefined ? {} : sampleJsonSchema(schema, seededRandom(hashString(declaration.name, seed)), prompt);
  return { name: declaration.name, args: isObject(args) ? args : {} };
}

function isObject(value: JsonValue): value is { [key: string]: JsonValue } {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
