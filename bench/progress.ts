/** Progress lines go to stderr, so that stdout carries the table alone. */
export function progress(message: string): void {
  process.stderr.write(`[bench] ${message}\n`);
}
