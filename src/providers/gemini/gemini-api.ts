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

const responsePartSchema = z.looseObject({
  text: z.string().nullish(),
  thought: z.boolean().nullish(),
  thoughtSignature: z.string().nullish(),
  functionCall: z.looseObject({ id: z.string().nullish(), name: z.string(), args: z.record(z.string(), z.unknown()).nullish() }).nullish(),
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
    details: z.array(z.looseObject({ '@type': z.string().nullish(), retryDelay: z.string().nullish() })).nullish(),
  }),
});

export type GenerateContentResponseWire = z.infer<typeof generateContentResponseSchema>;
export type GeminiCandidateWire = z.infer<typeof candidateSchema>;
export type GeminiResponsePartWire = z.infer<typeof responsePartSchema>;
export type GeminiUsageMetadataWire = z.infer<typeof usageMetadataSchema>;
export type GeminiErrorWire = z.infer<typeof geminiErrorEnvelopeSchema>['error'];
