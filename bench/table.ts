/** A plain aligned text table: a header, section titles, rows of cells. */

export type Row = { section: string } | { cells: string[] };

export interface Column {
  title: string;
  align?: 'left' | 'right';
}

export function renderTable(columns: Column[], rows: Row[]): string {
  const widths = columns.map((c) => c.title.length);
  for (const row of rows) {
    if ('cells' in row) row.cells.forEach((cell, i) => (widths[i] = Math.max(widths[i] ?? 0, cell.length)));
  }
  const total = widths.reduce((a, b) => a + b, 0) + 3 * (widths.length - 1);
  const line = (cells: string[]) =>
    cells
      .map((cell, i) => (columns[i]?.align === 'right' ? cell.padStart(widths[i]!) : cell.padEnd(widths[i]!)))
      .join('   ')
      .trimEnd();
  const out = [line(columns.map((c) => c.title)), '-'.repeat(total)];
  for (const row of rows) {
    if ('section' in row) out.push('', row.section);
    else out.push(line(row.cells));
  }
  return out.join('\n');
}

/** Number formatting for the table. */
export const fmt = {
  ms(value: number, digits = 2): string {
    return Number.isFinite(value) ? `${value.toFixed(digits)} ms` : 'n/a';
  },
  /** Milliseconds shown as microseconds, for per-event costs. */
  us(ms: number, digits = 1): string {
    return Number.isFinite(ms) ? `${(ms * 1000).toFixed(digits)} µs` : 'n/a';
  },
  seconds(ms: number, digits = 2): string {
    return Number.isFinite(ms) ? `${(ms / 1000).toFixed(digits)} s` : 'n/a';
  },
  pct(part: number, whole: number, digits = 1): string {
    return whole > 0 ? `${((100 * part) / whole).toFixed(digits)} %` : 'n/a';
  },
  pair(a: number, b: number, digits = 2): string {
    return Number.isFinite(a) && Number.isFinite(b) ? `${a.toFixed(digits)} / ${b.toFixed(digits)} ms` : 'n/a';
  },
  signedPair(a: number, b: number, digits = 2): string {
    const s = (v: number) => (v >= 0 ? '+' : '') + v.toFixed(digits);
    return Number.isFinite(a) && Number.isFinite(b) ? `${s(a)} / ${s(b)} ms` : 'n/a';
  },
  signed(value: number, digits = 2): string {
    return Number.isFinite(value) ? `${value >= 0 ? '+' : ''}${value.toFixed(digits)} ms` : 'n/a';
  },
  rate(value: number): string {
    return Number.isFinite(value) ? `${Math.round(value).toLocaleString('en-US')} req/s` : 'n/a';
  },
  int(value: number): string {
    return Math.round(value).toLocaleString('en-US');
  },
  mb(bytes: number): string {
    return Number.isFinite(bytes) ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : 'n/a';
  },
};
