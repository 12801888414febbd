import type { UpstreamChatRequest } from '../chat-adapter';
import { UnsupportedParameterError } from '../unsupported-parameter';
import type { AnthropicTool } from './anthropic-prepare-tools';
import { withinStructuredOutputSchemas } from './structured-output-schema';

/**
 * How a Claude model answers `response_format` (`json_schema` or
 * `json_object`); `text` asks for nothing.
 *
 * - `output_format`: the model has Anthropic's structured outputs (catalog
 *   `structured_outputs`) and the schema stays within what they take; the
 *   schema goes as `output_config.format` and the answer is JSON text.
 * - `answer_tool`: otherwise one tool named after the schema, its input
 *   schema the client's, and `tool_choice` forcing it; the tool call's
 *   input is the answer, shown to the client as the message's `content`
 *   with `finish_reason` `stop`. `json_object` is always this, with the
 *   schema `{type: "object"}` (structured outputs would allow only `{}`).
 *
 * Anthropic refuses a forced tool while thinking is on, and a forced tool
 * would keep the model from calling the client's own tools, so either
 * together with `answer_tool` is refused by name, before any upstream
 * call (a route policy's next route, on another protocol, may take it).
 * Thinking is off on Claude unless the client asked for it.
 * @see https://docs.anthropic.com/en/docs/build-with-claude/structured-outputs
 * @see https://docs.anthropic.com/en/docs/build-with-claude/tool-use/overview#json-mode
 * @see https://docs.anthropic.com/en/docs/build-with-claude/extended-thinking#extended-thinking-with-tool-use
 */
export type AnthropicResponseFormat =
  | { kind: 'output_format'; schema: Record<string, unknown> }
  | { kind: 'answer_tool'; tool: AnthropicTool };

/** The name of the forced tool that carries a `json_object` answer. */
export const JSON_OBJECT_TOOL = 'json_object';

const ANY_OBJECT = { type: 'object' };

export function anthropicResponseFormat(request: UpstreamChatRequest): AnthropicResponseFormat | undefined {
  const format = request.response_format;
  if (!format || format.type === 'text') return undefined;
  if (format.type === 'json_schema') {
    const schema = format.json_schema.schema ?? ANY_OBJECT;
    if (request.structuredOutputs && withinStructuredOutputSchemas(schema)) return { kind: 'output_format', schema };
    return answerTool(request, { name: format.json_schema.name, description: format.json_schema.description, input_schema: schema });
  }
  return answerTool(request, { name: JSON_OBJECT_TOOL, input_schema: ANY_OBJECT });
}

/** The forced tool's name, when the answer comes as its input; the answer converters read it. */
export function answerToolName(request: UpstreamChatRequest): string | undefined {
  const format = anthropicResponseFormat(request);
  return format?.kind === 'answer_tool' ? format.tool.name : undefined;
}

function answerTool(request: UpstreamChatRequest, tool: { name: string; description?: string; input_schema: Record<string, unknown> }): AnthropicResponseFormat {
  const refuse = (param: string, why: string): never => {
    throw new UnsupportedParameterError(
      param,
      `On this Claude model "response_format" is answered through a forced tool call (its catalog entry has no structured_outputs, or the schema uses keywords structured outputs do not take), and ${why}.`,
    );
  };
  if (request.thinking?.enabled) refuse('response_format', 'Anthropic refuses a forced tool call while thinking is on; remove the reasoning request (reasoning_effort, reasoning, the #thinking suffix) or "response_format"');
  if (request.tools?.length) refuse('tools', 'a forced tool call would keep the model from calling your tools; send "tools" or "response_format", not both');
  if (tool.input_schema.type !== 'object') refuse('response_format', 'a tool takes an object schema at its root ("type": "object"); wrap the value in an object');
  const description = tool.description ?? 'Give your answer as this tool\'s input, in the JSON format it describes.';
  return { kind: 'answer_tool', tool: { name: tool.name, description, input_schema: tool.input_schema } };
}
