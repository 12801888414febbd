import { z } from 'zod';

/**
 * `generateContent`, `streamGenerateContent` and `countTokens` requests in
 * the Gemini API's wire shape (v1beta, lowerCamelCase). Like Google's proto
 * JSON parser, a field the gateway does not know is refused by name rather
 * than dropped, so that nothing a client asked for is silently lost; fields
 * that name upstream state or hosted tools are refused with why
 * (gemini-refusals.ts).
 * @see https://ai.google.dev/api/generate-content#request-body
 */

const functionCallSchema = z.strictObject({
  id: z.string().optional(),
  name: z.string().min(1),
  args: z.record(z.string(), z.unknown()).optional(),
});

const functionResponseSchema = z.strictObject({
  id: z.string().optional(),
  name: z.string().min(1),
  response: z.record(z.string(), z.unknown()),
});

/** One part carries one kind of data; a thought signature may ride on any of them. */
export const partSchema = z
  .strictObject({
    text: z.string().optional(),
    thought: z.boolean().optional(),
    thoughtSignature: z.string().optional(),
    inlineData: z.strictObject({ mimeType: z.string().min(1), data: z.string() }).optional(),
    fileData: z.strictObject({ mimeType: z.string().optional(), fileUri: z.string().min(1) }).optional(),
    functionCall: functionCallSchema.optional(),
    functionResponse: functionResponseSchema.optional(),
  })
  .refine((part) => ['text', 'inlineData', 'fileData', 'functionCall', 'functionResponse'].filter((k) => k in part).length === 1, {
    message: 'must hold exactly one of text, inlineData, fileData, functionCall or functionResponse',
  });

export const contentSchema = z.strictObject({
  role: z.enum(['user', 'model']).optional(),
  parts: z.array(partSchema).min(1, 'must not be empty').max(10_000),
});

/** The system instruction's role is ignored (the SDK sends `user`). */
const systemInstructionSchema = z.strictObject({ role: z.string().optional(), parts: z.array(partSchema).min(1, 'must not be empty') });

/** Gemini 3's levels; the SDK sends them upper-case. */
const thinkingLevelSchema = z.string().transform((level) => level.toLowerCase()).pipe(z.enum(['minimal', 'low', 'medium', 'high']));

export const thinkingConfigSchema = z.strictObject({
  includeThoughts: z.boolean().optional(),
  thinkingBudget: z.number().int().min(-1).optional(),
  thinkingLevel: thinkingLevelSchema.optional(),
});

export const generationConfigSchema = z.strictObject({
  temperature: z.number().min(0).max(2).optional(),
  topP: z.number().min(0).max(1).optional(),
  topK: z.number().int().positive().optional(),
  maxOutputTokens: z.number().int().positive().optional(),
  stopSequences: z.array(z.string()).max(5).optional(),
  candidateCount: z.number().int().min(1).max(8).optional(),
  responseMimeType: z.string().optional(),
  responseSchema: z.record(z.string(), z.unknown()).optional(),
  responseJsonSchema: z.record(z.string(), z.unknown()).optional(),
  /** Text is all the gateway serves. */
  responseModalities: z.array(z.literal('TEXT')).optional(),
  thinkingConfig: thinkingConfigSchema.optional(),
  seed: z.number().int().optional(),
  presencePenalty: z.number().optional(),
  frequencyPenalty: z.number().optional(),
});

/** Gemini's function names: letters, digits, `_`, `.`, `:` and `-`, at most 64, starting with a letter or `_`. */
const functionDeclarationSchema = z.strictObject({
  name: z.string().regex(/^[A-Za-z_][A-Za-z0-9_.:-]{0,63}$/, 'must start with a letter or _ and hold at most 64 letters, digits, _ . : or -'),
  description: z.string().optional(),
  parameters: z.record(z.string(), z.unknown()).optional(),
  parametersJsonSchema: z.record(z.string(), z.unknown()).optional(),
});

/** A tool's hosted kinds (googleSearch, codeExecution, ...) are refused by name before the schema reads it (gemini-refusals.ts). */
const toolSchema = z.strictObject({ functionDeclarations: z.array(functionDeclarationSchema).max(128).optional() });

const toolConfigSchema = z.strictObject({
  functionCallingConfig: z
    .strictObject({
      mode: z.enum(['AUTO', 'ANY', 'NONE', 'VALIDATED', 'MODE_UNSPECIFIED']).optional(),
      allowedFunctionNames: z.array(z.string().min(1)).optional(),
    })
    .optional(),
});

const safetySettingSchema = z.strictObject({ category: z.string().min(1), threshold: z.string().min(1), method: z.string().optional() });

export const generateContentRequestSchema = z
  .strictObject({
    /** Gemini takes the model in the body too (`models/...`); the path's is the one served. */
    model: z.string().optional(),
    contents: z.array(contentSchema).min(1, 'must hold at least one content').max(10_000),
    systemInstruction: systemInstructionSchema.optional(),
    generationConfig: generationConfigSchema.optional(),
    tools: z.array(toolSchema).max(128).optional(),
    toolConfig: toolConfigSchema.optional(),
    safetySettings: z.array(safetySettingSchema).max(32).optional(),
  })
  .superRefine((req, ctx) => {
    const config = req.generationConfig;
    if (config?.responseSchema && config.responseJsonSchema) {
      ctx.addIssue({ code: 'custom', path: ['generationConfig', 'responseJsonSchema'], message: 'cannot be given with responseSchema: send one of the two' });
    }
    const thinking = config?.thinkingConfig;
    if (thinking?.thinkingBudget !== undefined && thinking.thinkingLevel !== undefined) {
      ctx.addIssue({ code: 'custom', path: ['generationConfig', 'thinkingConfig', 'thinkingLevel'], message: 'cannot be given with thinkingBudget: send one of the two' });
    }
    for (const [t, tool] of (req.tools ?? []).entries()) {
      for (const [d, declaration] of (tool.functionDeclarations ?? []).entries()) {
        if (declaration.parameters && declaration.parametersJsonSchema) {
          ctx.addIssue({ code: 'custom', path: ['tools', t, 'functionDeclarations', d, 'parametersJsonSchema'], message: 'cannot be given with parameters: send one of the two' });
        }
      }
    }
  });

/** `countTokens` takes the contents alone, or a whole `generateContentRequest`. */
export const countTokensRequestSchema = z
  .strictObject({
    contents: z.array(contentSchema).max(10_000).optional(),
    generateContentRequest: generateContentRequestSchema.optional(),
  })
  .refine((req) => (req.contents?.length ? 1 : 0) + (req.generateContentRequest ? 1 : 0) === 1, {
    message: 'must hold either "contents" or "generateContentRequest"',
  });

export type GenerateContentRequest = z.infer<typeof generateContentRequestSchema>;
export type GeminiRequestPart = z.infer<typeof partSchema>;
export type GeminiRequestContent = z.infer<typeof contentSchema>;
export type CountTokensRequest = z.infer<typeof countTokensRequestSchema>;
