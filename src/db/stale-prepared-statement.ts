/**
 * A named statement that no longer fits: `cached plan must not change result
 * type` (0A000, a migration changed what it returns) or `prepared statement …
 * does not exist` (26000, a pooler reset the session). Prepared anew, it runs.
 */
export function isStalePreparedStatement(err: unknown): boolean {
  const { code, message } = (err ?? {}) as { code?: unknown; message?: unknown };
  return code === '26000' || (code === '0A000' && typeof message === 'string' && message.includes('cached plan'));
}
