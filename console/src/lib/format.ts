/** How the console writes amounts, sizes, times and names: one place, so every page reads the same. */

/** Micro-USD as dollars: exact to the micro-dollar below $1 (`$0.000123`), cents above (`$12.34`). */
export function formatMicrousd(microusd: number): string {
  const sign = microusd < 0 ? '-' : '';
  const abs = Math.abs(microusd);
  if (abs >= 1_000_000) return `${sign}$${(abs / 1_000_000).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
  if (abs === 0) return '$0';
  const dollars = (abs / 1_000_000).toFixed(6).replace(/0+$/, '');
  return `${sign}$${dollars}`;
}

/** A whole number with thousands separators. */
export function formatCount(n: number): string {
  return n.toLocaleString('en-US');
}

/** Bytes in B, KB, MB or GB (powers of 1024, one decimal). */
export function formatBytes(bytes: number): string {
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return unit === 0 ? `${value} B` : `${value.toFixed(1)} ${units[unit]}`;
}

/** Unix seconds or an ISO string as local date and time, to the second. */
export function formatTime(when: number | string): string {
  const date = typeof when === 'number' ? new Date(when * 1000) : new Date(when);
  return date.toLocaleString(undefined, { year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', second: '2-digit' });
}

/** A label inside a sentence: "Admin token" -> "admin token", but "API key" stays (an acronym keeps its capitals). */
export function inSentence(label: string): string {
  return /^[A-Z][a-z]/.test(label) ? label[0]!.toLowerCase() + label.slice(1) : label;
}
