import { hashString, seededRandom } from './deterministic-random';

/**
 * A deterministic unit vector for a text: the same text and model always
 * give the same vector, different texts give unrelated ones. Components come
 * from one seeded sequence, so a shorter `dimensions` is a prefix of the
 * longer vector renormalised, which is what OpenAI's `dimensions` does too.
 */
export function embeddingVector(seedText: string, dimensions: number): Float32Array {
  const random = seededRandom(hashString(seedText));
  const vector = new Float32Array(dimensions);
  let squares = 0;
  for (let index = 0; index < dimensions; index++) {
    const component = random() * 2 - 1;
    vector[index] = component;
    squares += component * component;
  }
  const norm = Math.sqrt(squares) || 1;
  for (let index = 0; index < dimensions; index++) vector[index] = (vector[index] ?? 0) / norm;
  return vector;
}

/** Packed little-endian float32 in base64, the `encoding_format: "base64"` wire form. */
export function float32Base64(vector: Float32Array): string {
  const bytes = Buffer.alloc(vector.length * 4);
  vector.forEach((component, index) => bytes.writeFloatLE(component, index * 4));
  return bytes.toString('base64');
}
