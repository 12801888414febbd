/** How the console writes amounts, sizes, times and names: one place, so every page reads the same. */

/**
 * Money, one rule on every page: US dollars with at least two decimals
 * (`$0.30`, `$2.00`), and the further decimals an amount has, never
 * rounded (`$0.029811`, `$0.000123`): the gateway counts whole micro-dollars,
 * so an amount has at most six. Thousands are separated (`$1,234.50`).
 */
export function formatMicrousd(microusd: number): string {
  const abs = Math.abs(microusd);
  const fraction = String(abs % 1_000_000).padStart(6, '0');
  return dollars(microusd < 0, String(Math.floor(abs / 1_000_000)), fraction);
}

/** A decimal dollar amount as the gateway writes it (a catalog price: `"0.3"`, `"0.00015"`), by the same rule as formatMicrousd. */
export function formatUsd(decimal: string): string {
  const parts = /^(-?)(\d+)(?:\.(\d+))?$/.exec(decimal.trim());
  if (!parts) return `$${decimal}`;
  return dollars(parts[1] === '-', parts[2]!.replace(/^0+(?=\d)/, ''), parts[3] ?? '');
}

function dollars(negative: boolean, whole: string, fraction: string): string {
  const cents = fraction.replace(/0+$/, '').padEnd(2, '0');
  const zero = /^0*$/.test(whole) && /^0*$/.test(cents);
  return `${negative && !zero ? '-' : ''}$${whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}.${cents}`;
}

/**
 * Dollars as an operator types them (`5`, `0.25`, `$1,000`, `-2.5`) in
 * micro-dollars; undefined for anything else, or finer than a micro-dollar.
 * A sign is kept: what the gateway accepts is the gateway's to say.
 */
export function parseUsd(text: string): number | undefined {
  const parts = /^(-?)\$?(\d*)(?:\.(\d{0,6}))?$/.exec(text.replace(/[\s,]/g, ''));
  if (!parts || (parts[2] === '' && !parts[3])) return undefined;
  const microusd = Number(parts[2] || '0') * 1_000_000 + Number((parts[3] ?? '').padEnd(6, '0'));
  if (!Number.isSafeInteger(microusd)) return undefined;
  return parts[1] === '-' && microusd !== 0 ? -microusd : microusd;
}

/** Names typed as a list (`a, b` or one a line): the distinct ones, in order; none for an empty text. */
export function parseList(text: string): string[] {
  return [...new Set(text.split(/[\s,]+/).filter(Boolean))];
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
