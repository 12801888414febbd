import { z } from 'zod';

/**
 * The parts of MCP's JSON-RPC messages the gateway reads from an upstream
 * server. Results are kept loose (`looseObject`): whatever a newer revision
 * adds to a tool or a result is passed through, not dropped.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic
 */
export const jsonRpcErrorSchema = z.object({ code: z.number().int(), message: z.string(), data: z.unknown().optional() });

export const jsonRpcAnswerSchema = z.union([
  z.object({ jsonrpc: z.literal('2.0'), id: z.union([z.string(), z.number()]), result: z.record(z.string(), z.unknown()) }),
  z.object({ jsonrpc: z.literal('2.0'), id: z.union([z.string(), z.number(), z.null()]), error: jsonRpcErrorSchema }),
]);

export type JsonRpcAnswer = z.infer<typeof jsonRpcAnswerSchema>;

export const initializeResultSchema = z.looseObject({
  protocolVersion: z.string(),
  capabilities: z.looseObject({
    tools: z.looseObject({}).optional(),
    resources: z.looseObject({}).optional(),
    prompts: z.looseObject({}).optional(),
  }),
  serverInfo: z.looseObject({ name: z.string(), version: z.string() }).optional(),
});

export type InitializeResult = z.infer<typeof initializeResultSchema>;

export const toolSchema = z.looseObject({ name: z.string().min(1), inputSchema: z.looseObject({}) });
export const resourceSchema = z.looseObject({ uri: z.string().min(1), name: z.string() });
export const promptSchema = z.looseObject({ name: z.string().min(1) });

/** One page of a list method: its items under `key`, and the cursor of the next page. */
export const listPageSchema = <K extends string, T extends z.ZodType>(key: K, item: T) =>
  z.looseObject({ [key]: z.array(item), nextCursor: z.string().optional() } as { [P in K]: z.ZodArray<T> } & { nextCursor: z.ZodOptional<z.ZodString> });

export type McpTool = z.infer<typeof toolSchema>;
export type McpResource = z.infer<typeof resourceSchema>;
export type McpPrompt = z.infer<typeof promptSchema>;
