/** JSON from an upstream, or undefined when it is not JSON (the caller's schema check then says what was wrong). */
export function parseJsonOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
