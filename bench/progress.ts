let label = 'bench';

/** Names the tool in progress lines (`[bench]`, `[drills]`). */
export function progressLabel(name: string): void {
  label = name;
}

/** Progress lines go to stderr, so that stdout carries the table alone. */
export function progress(message: string): void {
  process.stderr.write(`[${label}] ${message}\n`);
}
