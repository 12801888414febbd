import { hashString, seededRandom } from '../deterministic-random';
import { randomAlphanumericId } from '../ids';
import { sampleJsonSchema } from '../json-schema-sample';
import type { ChatRequest, ChatTool } from './chat-request';
import { type OpenAIError, invalidParameter } from './errors';

/**
 * Which tools a simulated model calls, and with what arguments. A model with
 * tools answers the user with a call, as a tool-using agent would, unless
 * `tool_choice` is `none`; once the last message is a tool's result it
 * answers in text instead.
 */

export interface FunctionTool {
  name: string;
  parameters?: unknown;
}

export interface GeneratedToolCall {
  id: string;
  name: string;
  /** A JSON object, as a string, exactly as the wire carries it. */
  arguments: string;
}

export function functionTools(request: ChatRequest): FunctionTool[] {
  return (request.tools ?? []).flatMap((tool: ChatTool) =>
    tool.type === 'function' && typeof tool.function?.name === 'string' ? [{ name: tool.function.name, parameters: tool.function.parameters }] : [],
  );
}

/** A named `tool_choice` must name one of the request's tools, as the real API insists. */
export function toolChoiceError(request: ChatRequest): OpenAIError | undefined {
  const choice = request.tool_choice;
  if (typeof choice !== 'object' || choice === null) return undefined;
  const name = choice.function?.name;
  if (functionTools(request).some((tool) => tool.name === name)) return undefined;
  return invalidParameter('tool_choice', `Invalid value for 'tool_choice': tool '${name}' is not in 'tools'.`);
}

/**
 * The tools to call, first the chosen one: the one `tool_choice` names, else
 * the first whose name the user wrote, else the first listed. `count` more
 * than one calls further tools in parallel, unless the request forbids it.
 */
export function toolsToCall(request: ChatRequest, userText: string, count: number): FunctionTool[] {
  const tools = functionTools(request);
  const chosen = chooseTool(request, tools, userText.toLowerCase());
  if (!chosen) return [];
  const parallel = request.parallel_tool_calls === false ? 1 : count;
  return [chosen, ...tools.filter((tool) => tool !== chosen)].slice(0, parallel);
}

function chooseTool(request: ChatRequest, tools: FunctionTool[], userText: string): FunctionTool | undefined {
  const choice = request.tool_choice;
  if (typeof choice === 'object' && choice !== null) return tools.find((tool) => tool.name === choice.function?.name);
  return tools.find((tool) => userText.includes(tool.name.toLowerCase())) ?? tools[0];
}

/** `prompt` is what the user wrote, directives removed: arguments such as a query or a city may come from it. */
export function generateToolCall(tool: FunctionTool, seed: number, prompt: string): GeneratedToolCall {
  const args = tool.parameters === undefined ? {} : sampleJsonSchema(tool.parameters, seededRandom(hashString(tool.name, seed)), prompt);
  return { id: randomAlphanumericId('call_', 24), name: tool.name, arguments: JSON.stringify(args) };
}
