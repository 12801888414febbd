import type { ModelConfig } from '../config/gateway-config-schema';

type EmbeddingSpec = NonNullable<ModelConfig['embedding']>;

/**
 * The `dimensions` lengths an embedding model takes (the listed ones and its
 * own), or null when it takes any length from 1 up to its own (`truncation:
 * any`, Matryoshka models).
 */
export function allowedDimensions(embedding: EmbeddingSpec): number[] | null {
  const { dimensions, truncation } = embedding;
  if (truncation === 'any') return null;
  return [...new Set([...(truncation ?? []), dimensions])].sort((a, b) => a - b);
}

/** Whether the model gives vectors of `wanted` length. */
export function takesDimensions(embedding: EmbeddingSpec, wanted: number): boolean {
  const allowed = allowedDimensions(embedding);
  return allowed ? allowed.includes(wanted) : wanted >= 1 && wanted <= embedding.dimensions;
}

/** The allowed lengths in words, for an error message: `1 to 1536`, `one of 256, 512, 1024`. */
export function describeDimensions(embedding: EmbeddingSpec): string {
  const allowed = allowedDimensions(embedding);
  if (!allowed) return `1 to ${embedding.dimensions}`;
  return allowed.length > 1 ? `one of ${allowed.join(', ')}` : String(allowed[0]);
}
