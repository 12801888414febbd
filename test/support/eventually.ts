/**
 * Polls `probe` until it returns something other than undefined, and
 * returns that. Things a test waits for (a task finishing, a record being
 * written, a disconnect being seen) happen a moment after the test's own
 * step; `what` says what was awaited when it never comes (a function, to
 * describe the last state seen).
 */
export async function eventually<T>(probe: () => Promise<T | undefined>, what: string | (() => string), timeoutMs = 5000, intervalMs = 25): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${typeof what === 'string' ? what : what()}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
