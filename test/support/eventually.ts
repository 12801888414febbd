/**
 * Polls `probe` until it returns something other than undefined, and
 * returns that. Things a test waits for (a task finishing, a record being
 * written, a disconnect being seen) happen a moment after the test's own
 * step; `what` says what was awaited when it never comes (a function, to
 * describe the last state seen), and the wait then fails the test.
 */
export async function eventually<T>(probe: () => Promise<T | undefined>, what: string | (() => string), timeoutMs = 5000, intervalMs = 25): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${typeof what === 'string' ? what : what()}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

/**
 * Reads a value until `ready(value)` holds, and returns that value; on
 * time-out the error names what was awaited and shows the last value read
 * (a wallet still holding money, a task still running).
 */
export async function readUntil<T>(read: () => Promise<T>, ready: (value: T) => boolean, what: string, timeoutMs = 5000, intervalMs = 25): Promise<T> {
  let last: { value: T } | undefined;
  return eventually(
    async () => {
      const value = await read();
      last = { value };
      return ready(value) ? value : undefined;
    },
    () => `${what}; last read: ${last ? asText(last.value) : 'nothing'}`,
    timeoutMs,
    intervalMs,
  );
}

function asText(value: unknown): string {
  try {
    return JSON.stringify(value, (_key, v: unknown) => (typeof v === 'bigint' ? v.toString() : v)) ?? String(value);
  } catch {
    return String(value);
  }
}
