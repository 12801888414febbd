/** A labelled progress bar with its percentage written out: `fraction` 0 to 1. */
export function ProgressBar({ label, fraction }: { label: string; fraction: number }) {
  const percent = Math.round(Math.min(1, Math.max(0, fraction)) * 100);
  return (
    <div class="progress">
      <progress max={100} value={percent} aria-label={label} />
      <span class="progress-text">{percent} %</span>
    </div>
  );
}
