import { type GeminiError, invalidArgument, unknownField } from './errors';

/**
 * The parts of a `generateContent` request the simulator reads, and the
 * checks the Gemini API makes on its shape before anything else. Like proto
 * JSON parsing, it rejects unknown fields of the request and of
 * `generationConfig`, which catches a gateway sending OpenAI names. Names are
 * the documented lowerCamelCase ones (Google's parser also takes their
 * snake_case originals; a gateway has no reason to send those).
 * @see https://ai.google.dev/api/generate-content#request-body
 */
export interface GenerateContentRequest {
  contents: GeminiContent[];
  systemInstruction?: { parts?: GeminiPart[] };
  generationConfig?: GenerationConfig;
  tools?: { functionDeclarations?: FunctionDeclaration[] }[];
  toolConfig?: { functionCallingConfig?: { mode?: string; allowedFunctionNames?: string[] } };
}

export interface GeminiContent {
  role?: string;
  parts: GeminiPart[];
}

export interface GeminiPart {
  text?: string;
  thought?: boolean;
  thoughtSignature?: string;
  inlineData?: { mimeType?: string; data?: string };
  fileData?: { mimeType?: string; fileUri?: string };
  functionCall?: { name?: string; args?: unknown };
  functionResponse?: { name?: string; response?: unknown };
}

export interface FunctionDeclaration {
  name: string;
  description?: string;
  /** Gemini's OpenAPI subset, with upper-case type names. */
  parameters?: unknown;
  parametersJsonSchema?: unknown;
}

export interface GenerationConfig {
  maxOutputTokens?: number;
  candidateCount?: number;
  responseMimeType?: string;
  responseSchema?: unknown;
  responseJsonSchema?: unknown;
  thinkingConfig?: ThinkingConfig;
}

export interface ThinkingConfig {
  thinkingBudget?: number;
  thinkingLevel?: string;
  includeThoughts?: boolean;
}

const REQUEST_FIELDS = new Set(['model', 'contents', 'systemInstruction', 'generationConfig', 'tools', 'toolConfig', 'safetySettings', 'cachedContent']);

/** @see https://ai.google.dev/api/generate-content#generationconfig */
const GENERATION_CONFIG_FIELDS = new Set([
  'stopSequences', 'responseMimeType', 'responseSchema', 'responseJsonSchema', 'responseModalities', 'candidateCount',
  'maxOutputTokens', 'temperature', 'topP', 'topK', 'seed', 'presencePenalty', 'frequencyPenalty', 'responseLogprobs',
  'logprobs', 'enableEnhancedCivicAnswers', 'speechConfig', 'thinkingConfig', 'imageConfig', 'mediaResolution',
]);

/** @see https://ai.google.dev/api/generate-content#ThinkingConfig */
const THINKING_CONFIG_FIELDS = new Set(['includeThoughts', 'thinkingBudget', 'thinkingLevel']);

const ROLES = new Set(['user', 'model']);

const MAX_CANDIDATES = 8;

export function validateGenerateContentRequest(json: object): { ok: true; request: GenerateContentRequest } | { ok: false; error: GeminiError } {
  const error =
    unknownFieldError(json) ??
    contentsError((json as { contents?: unknown }).contents) ??
    candidateCountError((json as GenerateContentRequest).generationConfig?.candidateCount) ??
    functionResponseCountError(json as GenerateContentRequest);
  return error ? { ok: false, error } : { ok: true, request: json as GenerateContentRequest };
}

function unknownFieldError(json: object): GeminiError | undefined {
  const generationConfig = (json as { generationConfig?: unknown }).generationConfig;
  const thinkingConfig = isObject(generationConfig) ? generationConfig.thinkingConfig : undefined;
  return (
    unknownFieldIn(json, REQUEST_FIELDS) ??
    unknownFieldIn(generationConfig, GENERATION_CONFIG_FIELDS, 'generation_config') ??
    unknownFieldIn(thinkingConfig, THINKING_CONFIG_FIELDS, 'generation_config.thinking_config')
  );
}

function unknownFieldIn(value: unknown, known: Set<string>, at?: string): GeminiError | undefined {
  if (!isObject(value)) return undefined;
  const unknown = Object.keys(value).find((name) => !known.has(name));
  return unknown === undefined ? undefined : unknownField(unknown, at);
}

function contentsError(contents: unknown): GeminiError | undefined {
  if (!Array.isArray(contents) || contents.length === 0) return invalidArgument('* GenerateContentRequest.contents: contents is not specified\n');
  for (const [index, content] of contents.entries()) {
    const { role, parts } = isObject(content) ? content : {};
    if (role !== undefined && !ROLES.has(role as string)) return invalidArgument('Please use a valid role: user, model.');
    if (!Array.isArray(parts) || parts.length === 0) {
      return invalidArgument(`* GenerateContentRequest.contents[${index}].parts: contents.parts must not be empty.\n`);
    }
    const notPart = parts.findIndex((part) => !isObject(part));
    if (notPart >= 0) {
      const value = JSON.stringify(parts[notPart]);
      return invalidArgument(`Invalid value at 'contents[${index}].parts[${notPart}]' (type.googleapis.com/google.ai.generativelanguage.v1beta.Part), ${value}`);
    }
  }
  return undefined;
}

/** @see https://ai.google.dev/api/generate-content#generationconfig */
function candidateCountError(count: unknown): GeminiError | undefined {
  if (count === undefined || (Number.isInteger(count) && (count as number) >= 1 && (count as number) <= MAX_CANDIDATES)) return undefined;
  return invalidArgument(`* GenerateContentRequest.generation_config.candidate_count: must be between 1 and ${MAX_CANDIDATES}, got ${JSON.stringify(count)}.\n`);
}

/** A turn of function calls must be answered by a turn with exactly as many function responses. */
function functionResponseCountError(request: GenerateContentRequest): GeminiError | undefined {
  for (const [index, content] of request.contents.entries()) {
    const calls = content.parts.filter((part) => part.functionCall).length;
    const next = request.contents[index + 1];
    if (calls === 0 || next === undefined || next.role === 'model') continue;
    const responses = next.parts.filter((part) => part.functionResponse).length;
    if (responses !== calls) {
      return invalidArgument('Please ensure that the number of function response parts is equal to the number of function call parts of the function call turn.');
    }
  }
  return undefined;
}

/** The text of a content's text parts; function calls and responses, images and thoughts left out. */
export function contentText(content: GeminiContent): string {
  return content.parts
    .filter((part) => typeof part.text === 'string' && !part.thought)
    .map((part) => part.text)
    .join('\n');
}

/** A user content with something the user wrote, as opposed to function results only. */
export function isUserInput(content: GeminiContent): boolean {
  return content.role !== 'model' && content.parts.some((part) => !part.functionResponse);
}

/** Where directives are read from: the latest thing the end user wrote. */
export function lastUserText(request: GenerateContentRequest): string {
  const content = request.contents.findLast(isUserInput);
  return content ? contentText(content) : '';
}

export function lastContent(request: GenerateContentRequest): GeminiContent {
  const content = request.contents[request.contents.length - 1];
  if (!content) throw new Error('validateGenerateContentRequest guarantees at least one content');
  return content;
}

export function functionDeclarations(request: GenerateContentRequest): FunctionDeclaration[] {
  const tools = Array.isArray(request.tools) ? request.tools : [];
  return tools.flatMap((tool) => (Array.isArray(tool?.functionDeclarations) ? tool.functionDeclarations : [])).filter((declaration) => typeof declaration?.name === 'string');
}

function isObject(value: unknown): value is { [key: string]: unknown } {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
