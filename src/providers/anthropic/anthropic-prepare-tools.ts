import type { UpstreamChatRequest } from '../chat-adapter';
import type { CacheControl } from '../chat-request';

/**
 * OpenAI function tools and `tool_choice` as Anthropic's. A tool needs an
 * object schema even without parameters; `required` is Anthropic's `any`;
 * `parallel_tool_calls: false` is `disable_parallel_tool_use`, which
 * Anthropic does not take on `none` (no tool is called then anyway). A
 * tool's `cache_control` is kept: a breakpoint there caches the tools.
 * @see https://docs.anthropic.com/en/docs/build-with-claude/prompt-caching
 * @see https://docs.anthropic.com/en/docs/build-with-claude/tool-use/overview
 * @see https://docs.anthropic.com/en/api/messages#body-tool-choice
 */

export interface AnthropicTool {
  name: string;
  description?: string;
  input_schema: Record<string, unknown>;
  cache_control?: CacheControl;
}

export type AnthropicToolChoice =
  | { type: 'auto' | 'any'; disable_parallel_tool_use?: boolean }
  | { type: 'tool'; name: string; disable_parallel_tool_use?: boolean }
  | { type: 'none' };

export interface AnthropicToolFields {
  tools?: AnthropicTool[];
  tool_choice?: AnthropicToolChoice;
}

const EMPTY_OBJECT_SCHEMA = { type: 'object', properties: {} };

export function prepareAnthropicTools(request: Pick<UpstreamChatRequest, 'tools' | 'tool_choice' | 'parallel_tool_calls'>): AnthropicToolFields {
  if (!request.tools?.length) return {};
  const tools = request.tools.map(({ function: fn, cache_control }): AnthropicTool => ({
    name: fn.name,
    ...(fn.description !== undefined ? { description: fn.description } : {}),
    input_schema: fn.parameters ?? EMPTY_OBJECT_SCHEMA,
    ...(cache_control ? { cache_control } : {}),
  }));
  const choice = toolChoice(request.tool_choice ?? undefined, request.parallel_tool_calls === false);
  return choice ? { tools, tool_choice: choice } : { tools };
}

function toolChoice(choice: UpstreamChatRequest['tool_choice'] | undefined, oneCallOnly: boolean): AnthropicToolChoice | undefined {
  if (choice === 'none') return { type: 'none' };
  const parallel = oneCallOnly ? { disable_parallel_tool_use: true } : {};
  if (choice === undefined || choice === null) return oneCallOnly ? { type: 'auto', ...parallel } : undefined;
  if (choice === 'auto') return { type: 'auto', ...parallel };
  if (choice === 'required') return { type: 'any', ...parallel };
  return { type: 'tool', name: choice.function.name, ...parallel };
}
