/**
 * Everything a run has to undo (databases, temp folders, processes), newest
 * first, run exactly once: at the end, on a failure, or on Ctrl-C.
 */
const undoers: Array<() => unknown> = [];
let running: Promise<void> | undefined;

/** Registers an undo step; returns a function that runs it now (and only once) instead of at the end. */
export function onCleanup(undo: () => unknown): () => Promise<void> {
  let done = false;
  const once = async () => {
    if (done) return;
    done = true;
    await undo();
  };
  undoers.push(once);
  return once;
}

export function runCleanups(report: (problem: string) => void = () => undefined): Promise<void> {
  // Calls while one runs share it; a later call undoes what was registered since.
  return (running ??= (async () => {
    for (const undo of undoers.splice(0).reverse()) {
      try {
        await undo();
      } catch (err) {
        report(`clean-up: ${err instanceof Error ? err.message : String(err)}`);
      }
    }
  })().finally(() => (running = undefined)));
}
