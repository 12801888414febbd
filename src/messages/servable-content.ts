import { Errors } from '../errors/errors';
import { GatewayError } from '../errors/gateway-error';
import { contentBlockSchema, customToolSchema, type CountTokensRequest } from './messages-request-schema';

/**
 * What a Messages request may carry through this gateway, whatever the
 * route: content blocks of the kinds it serves (text, images, documents,
 * tool calls and results, thinking), custom tools, and on a native route
 * Anthropic's client tools (run by the client, billed as tokens). Server
 * tools (web search, web fetch, code execution, ...) cost money per use the
 * gateway does not bill, and files named by id live on the upstream
 * account: both are refused by name with a 400 before any upstream call.
 * @see https://docs.anthropic.com/en/docs/agents-and-tools/tool-use/overview
 */

/** Anthropic-defined tools the client runs itself: forwarded to Claude as they are, not translatable for other models. */
const CLIENT_TOOL_TYPES = /^(bash|text_editor|computer|memory)_\d{8}$/;

const SERVED_BLOCKS: ReadonlySet<string> = new Set(contentBlockSchema.options.map((option) => option.shape.type.value));

/** Blocks a tool result may hold. */
const TOOL_RESULT_BLOCKS = new Set(['text', 'image', 'document']);

export function checkServableContent(req: CountTokensRequest, native: boolean): void {
  for (const [index, tool] of (req.tools ?? []).entries()) checkTool(tool, `tools[${index}]`, native);
  const choice = req.tool_choice;
  if (choice?.type === 'tool' && !(req.tools ?? []).some((tool) => tool.name === choice.name)) {
    throw Errors.validation('tool_choice.name', `names no tool in "tools": "${choice.name}".`);
  }
  if (typeof req.system !== 'string') for (const [index, block] of (req.system ?? []).entries()) checkBlock(block, `system[${index}]`);
  for (const [m, message] of req.messages.entries()) {
    if (typeof message.content === 'string') continue;
    for (const [b, block] of message.content.entries()) {
      const path = `messages[${m}].content[${b}]`;
      const checked = checkBlock(block, path);
      if (checked.type === 'tool_result' && Array.isArray(checked.content)) {
        for (const [p, part] of checked.content.entries()) {
          if (!TOOL_RESULT_BLOCKS.has(part.type)) throw refuse(`${path}.content[${p}].type`, `"${part.type}" is not a block a tool result may hold here. Send text, images or documents`);
          checkBlock(part, `${path}.content[${p}]`);
        }
      }
    }
  }
}

function checkTool(tool: { type?: string }, path: string, native: boolean): void {
  const type = tool.type;
  if (type === undefined || type === 'custom') {
    const parsed = customToolSchema.safeParse(tool);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      throw Errors.validation([path, ...issue.path.map(String)].join('.'), issue.message);
    }
    return;
  }
  if (native && CLIENT_TOOL_TYPES.test(type)) return;
  if (CLIENT_TOOL_TYPES.test(type)) throw refuse(`${path}.type`, `"${type}" is an Anthropic-defined tool only Claude models take. Declare it as a custom tool with an input_schema for this model`);
  throw refuse(`${path}.type`, `"${type}" is a server tool run and billed by the upstream, which this gateway does not serve. Declare a custom tool and run it yourself`);
}

function checkBlock(block: { type: string }, path: string) {
  if (!SERVED_BLOCKS.has(block.type)) {
    throw refuse(`${path}.type`, `"${block.type}" is a content block this gateway does not serve (server tool results, files stored upstream). Send text, images, documents, tool calls and results, or thinking`);
  }
  const parsed = contentBlockSchema.safeParse(block);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw Errors.validation([path, ...issue.path.map(String)].join('.'), issue.message);
  }
  const checked = parsed.data;
  if ((checked.type === 'image' || checked.type === 'document') && checked.source.type === 'file') {
    throw refuse(`${path}.source`, 'names a file stored on the upstream account, which this gateway cannot attribute to your key. Send the file inline (base64) instead');
  }
  return checked;
}

function refuse(param: string, why: string): GatewayError {
  return new GatewayError('unsupported_parameter', `"${param}" ${why}.`, { param });
}
