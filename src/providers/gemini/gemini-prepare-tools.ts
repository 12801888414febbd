import type { ChatRequest } from '../chat-request';
import type { GeminiTool, GeminiToolConfig } from './gemini-api';

/**
 * OpenAI function tools as Gemini function declarations. The parameters go
 * as `parametersJsonSchema`, which takes JSON Schema as written, rather than
 * `parameters`, Gemini's OpenAPI subset that rejects common keywords.
 * `tool_choice` becomes the function-calling mode: `required` and a named
 * function are both `ANY`, the latter limited to that one name.
 * @see https://ai.google.dev/api/caching#FunctionDeclaration
 * @see https://ai.google.dev/gemini-api/docs/function-calling#function_calling_modes
 */
export function prepareGeminiTools(
  tools: ChatRequest['tools'],
  toolChoice: ChatRequest['tool_choice'],
): { tools?: GeminiTool[]; toolConfig?: GeminiToolConfig } {
  if (!tools?.length) return {};
  const functionDeclarations = tools.map(({ function: fn }) => ({
    name: fn.name,
    ...(fn.description !== undefined ? { description: fn.description } : {}),
    ...(fn.parameters !== undefined ? { parametersJsonSchema: fn.parameters } : {}),
  }));
  const toolConfig = toolChoice ? toGeminiToolConfig(toolChoice) : undefined;
  return toolConfig ? { tools: [{ functionDeclarations }], toolConfig } : { tools: [{ functionDeclarations }] };
}

function toGeminiToolConfig(toolChoice: NonNullable<ChatRequest['tool_choice']>): GeminiToolConfig {
  if (typeof toolChoice === 'object') return { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: [toolChoice.function.name] } };
  const mode = ({ auto: 'AUTO', none: 'NONE', required: 'ANY' } as const)[toolChoice];
  return { functionCallingConfig: { mode } };
}
