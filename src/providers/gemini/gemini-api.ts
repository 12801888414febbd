import { z } from 'zod';

/**
 * The Gemini API's `generateContent` wire format (v1beta, camelCase JSON).
 * Request types describe what the adapter writes. Response schemas are loose:
 * fields we do not read pass through, and fields we read must have the
 * documented type, so that a changed upstream fails here, at the border.
 * Proto3 JSON leaves out zero and empty values, so almost every field is optional.
 * @see https://ai.google.dev/api/generate-content
 */

export interface GeminiFunctionCall {
  name: string;
  args: Record<string, unknown>;
}

export interface GeminiPart {
  text?: string;
  thought?: boolean;
  /** Opaque reasoning state that must come back on the same part in the next request. */
  thoughtSignature?: string;
  inlineData?: { mimeType: string; data: string };
  functionCall?: GeminiFunctionCall;
  functionResponse?: { name: string; response: Record<string, unknown> };
}

export interface GeminiContent {
  role: 'user' | 'model';
  parts: GeminiPart[];
}

/** @see https://ai.google.dev/gemini-api/docs/thinking#set-budget */
export interface GeminiThinkingConfig {
  thinkingBudget?: number;
  /** Gemini 3: `minimal`, `low`, `medium` or `high`, by model; not together with `thinkingBudget`. */
  thinkingLevel?: string;
  includeThoughts?: boolean;
}

export interface GeminiGenerationConfig {
  temperature?: number;
  topP?: number;
  topK?: number;
  maxOutputTokens?: number;
  stopSequences?: string[];
  candidateCount?: number;
  seed?: number;
  presencePenalty?: number;
  frequencyPenalty?: number;
  responseMimeType?: string;
  responseJsonSchema?: Record<string, unknown>;
  thinkingConfig?: GeminiThinkingConfig;
}

export interface GeminiFunctionDeclaration {
  name: string;
  description?: string;
  parametersJsonSchema?: Record<string, unknown>;
}

export interface GeminiTool {
  functionDeclarations: GeminiFunctionDeclaration[];
}

/** @see https://ai.google.dev/api/caching#FunctionCallingConfig */
export interface GeminiToolConfig {
  functionCallingConfig: { mode: 'AUTO' | 'ANY' | 'NONE'; allowedFunctionNames?: string[] };
}

export interface GenerateContentRequest {
  contents: GeminiContent[];
  systemInstruction?: { parts: GeminiPart[] };
  generationConfig?: GeminiGenerationConfig;
  tools?: GeminiTool[];
  toolConfig?: GeminiToolConfig;
}

const tokenCount = z.number().int().nonnegative().nullish();

/** @see https://ai.google.dev/api/generate-content#UsageMetadata */
const usageMetadataSchema = z.looseObject({
  promptTokenCount: tokenCount,
  cachedContentTokenCount: tokenCount,
  candidatesTokenCount: tokenCount,
  toolUsePromptTokenCount: tokenCount,
  thoughtsTokenCount: tokenCount,
  totalTokenCount: tokenCount,
});

/**
 * One piece of a function call's arguments streamed in pieces (Gemini 3 on
 * Vertex AI with `streamFunctionCallArguments`): a JSON Path to one argument
 * and one scalar value for it (a oneof, so a value that is the default,
 * such as `""` or `0`, is still sent). `nullValue` is the enum
 * `google.protobuf.NullValue`, which proto3 JSON writes as `null`; Google's
 * SDKs spell it `"NULL_VALUE"`, so both are read.
 * @see https://docs.cloud.google.com/vertex-ai/generative-ai/docs/multimodal/function-calling#streaming-fc
 */
const partialArgSchema = z.looseObject({
  jsonPath: z.string(),
  stringValue: z.string().nullish(),
  numberValue: z.number().nullish(),
  boolValue: z.boolean().nullish(),
  nullValue: z.union([z.literal('NULL_VALUE'), z.null()]).optional(),
  willContinue: z.boolean().nullish(),
});

/**
 * A function call comes whole (`name` and `args`), or, with its arguments
 * streamed, as a start (`name`, `willContinue: true`, no `args`) followed by
 * pieces that carry `partialArgs` and no `name`; the piece without
 * `willContinue` ends the call. So `name` is optional, but `args` never
 * comes without it or beside pieces of arguments: that would be a shape the
 * adapter cannot tell the meaning of. Whether a nameless piece has a call
 * to continue is the stream's business (streamed-tool-calls.ts).
 */
const functionCallSchema = z
  .looseObject({
    id: z.string().nullish(),
    name: z.string().nullish(),
    args: z.record(z.string(), z.unknown()).nullish(),
    partialArgs: z.array(partialArgSchema).nullish(),
    willContinue: z.boolean().nullish(),
  })
  .superRefine((call, ctx) => {
    if (call.args == null) return;
    if (call.name == null) ctx.addIssue({ code: 'custom', path: ['args'], message: 'arguments without a function name' });
    else if (call.partialArgs != null) ctx.addIssue({ code: 'custom', path: ['args'], message: 'whole arguments beside streamed pieces of arguments' });
    else if (call.willContinue) ctx.addIssue({ code: 'custom', path: ['willContinue'], message: 'a whole call that says it will continue' });
  });

const responsePartSchema = z.looseObject({
  text: z.string().nullish(),
  thought: z.boolean().nullish(),
  thoughtSignature: z.string().nullish(),
  functionCall: functionCallSchema.nullish(),
});

const candidateSchema = z.looseObject({
  content: z.looseObject({ role: z.string().nullish(), parts: z.array(responsePartSchema).nullish() }).nullish(),
  finishReason: z.string().nullish(),
  index: z.number().int().nonnegative().nullish(),
});

export const generateContentResponseSchema = z.looseObject({
  candidates: z.array(candidateSchema).nullish(),
  promptFeedback: z.looseObject({ blockReason: z.string().nullish() }).nullish(),
  usageMetadata: usageMetadataSchema.nullish(),
  modelVersion: z.string().nullish(),
  responseId: z.string().nullish(),
});

/** @see https://ai.google.dev/gemini-api/docs/troubleshooting#error-codes */
export const geminiErrorEnvelopeSchema = z.looseObject({
  error: z.looseObject({
    code: z.number().int().nullish(),
    message: z.string().nullish(),
    status: z.string().nullish(),
    /** `RetryInfo` carries `retryDelay`; `ErrorInfo` carries `reason`, such as `API_KEY_INVALID`. */
    details: z.array(z.looseObject({ '@type': z.string().nullish(), retryDelay: z.string().nullish(), reason: z.string().nullish() })).nullish(),
  }),
});

export type GenerateContentResponseWire = z.infer<typeof generateContentResponseSchema>;
export type GeminiCandidateWire = z.infer<typeof candidateSchema>;
export type GeminiResponsePartWire = z.infer<typeof responsePartSchema>;
export type GeminiFunctionCallWire = z.infer<typeof functionCallSchema>;
export type GeminiPartialArgWire = z.infer<typeof partialArgSchema>;
export type GeminiUsageMetadataWire = z.infer<typeof usageMetadataSchema>;
export type GeminiErrorWire = z.infer<typeof geminiErrorEnvelopeSchema>['error'];
