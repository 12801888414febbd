/**
 * The JSON parts of a usage record, stored lean: their structure (the
 * skeleton: keys, nesting, and the strings that name catalog things) is
 * kept once per shape in `usage_shapes`, and each record keeps only its
 * figures, in one JSON array. A figure in the skeleton is the string
 * "\u0001" followed by its index in the figures: every number, and every
 * string of the parts that carry free text (the upstream's raw usage, the
 * search receipt, the decision stage, the MCP tool called), which would
 * otherwise make a shape of their own for every record (or let a client
 * make shapes without end). A kept string never starts with U+0001, so the
 * marker is never ambiguous. Indexed markers make the order of keys
 * irrelevant: a skeleton written by the SQL of the migration that converted
 * older records (jsonb key order) is read the same way.
 */

/** The parts of a record, in the order they are split. */
export interface UsageRecordParts {
  measurement: unknown;
  dimensions: unknown;
  line_items: unknown;
  routing: unknown;
  served_by: unknown;
  provider_usage: unknown;
  search: unknown;
  decision: unknown;
  mcp: unknown;
}

/** Whether each part keeps its strings in the skeleton (the gateway's own names) or makes them figures (free text). */
const KEEPS_STRINGS: Record<keyof UsageRecordParts, boolean> = {
  measurement: true,
  dimensions: true,
  line_items: true,
  routing: true,
  served_by: true,
  provider_usage: false,
  search: false,
  decision: false,
  mcp: false,
};

const PART_NAMES = Object.keys(KEEPS_STRINGS) as Array<keyof UsageRecordParts>;
const MARK = '\u0001';

export interface SplitRecord {
  /** The skeleton as JSON text: what `usage_shapes` keeps, and what a shape is recognised by. */
  skeleton: string;
  figures: unknown[];
}

export function splitUsageRecordParts(parts: UsageRecordParts): SplitRecord {
  const figures: unknown[] = [];
  const skeleton: Record<string, unknown> = {};
  for (const name of PART_NAMES) skeleton[name] = split(parts[name] ?? null, KEEPS_STRINGS[name], figures);
  return { skeleton: JSON.stringify(skeleton), figures };
}

/** The parts back from their shape's skeleton (parsed) and the record's figures. */
export function joinUsageRecordParts(skeleton: unknown, figures: readonly unknown[]): UsageRecordParts {
  const whole = fill(skeleton, figures) as Partial<UsageRecordParts> | null;
  const parts = {} as UsageRecordParts;
  for (const name of PART_NAMES) parts[name] = whole?.[name] ?? null;
  return parts;
}

/**
 * The figures of `parts` laid out as `skeleton` numbers them: for a record
 * whose figures changed but not its structure (a held charge settled), so
 * that it keeps its shape, whichever encoder wrote it. Throws when `parts`
 * lacks a figure the skeleton has.
 */
export function figuresInShape(skeleton: unknown, parts: UsageRecordParts): unknown[] {
  const figures: unknown[] = [];
  collect(skeleton, parts, figures, '');
  return figures;
}

function split(value: unknown, keepStrings: boolean, figures: unknown[]): unknown {
  if (typeof value === 'number' || (typeof value === 'string' && !(keepStrings && !value.startsWith(MARK)))) {
    figures.push(value);
    return `${MARK}${figures.length - 1}`;
  }
  if (Array.isArray(value)) return value.map((v) => split(v, keepStrings, figures));
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) if (v !== undefined) out[k] = split(v, keepStrings, figures);
    return out;
  }
  return value;
}

function fill(skeleton: unknown, figures: readonly unknown[]): unknown {
  const index = markIndex(skeleton);
  if (index !== null) return figures[index];
  if (Array.isArray(skeleton)) return skeleton.map((s) => fill(s, figures));
  if (skeleton !== null && typeof skeleton === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, s] of Object.entries(skeleton)) out[k] = fill(s, figures);
    return out;
  }
  return skeleton;
}

function collect(skeleton: unknown, value: unknown, figures: unknown[], path: string): void {
  const index = markIndex(skeleton);
  if (index !== null) {
    if (value === undefined) throw new Error(`the record has no figure at ${path || 'its root'} where its shape has one`);
    figures[index] = value;
  } else if (Array.isArray(skeleton)) {
    skeleton.forEach((s, i) => collect(s, Array.isArray(value) ? value[i] : undefined, figures, `${path}[${i}]`));
  } else if (skeleton !== null && typeof skeleton === 'object') {
    const record = value !== null && typeof value === 'object' ? (value as Record<string, unknown>) : {};
    for (const [k, s] of Object.entries(skeleton)) collect(s, record[k], figures, path ? `${path}.${k}` : k);
  }
}

function markIndex(skeleton: unknown): number | null {
  return typeof skeleton === 'string' && skeleton.startsWith(MARK) ? Number(skeleton.slice(1)) : null;
}
