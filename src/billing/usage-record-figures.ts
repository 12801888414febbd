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

/**
 * The skeleton is written as JSON text directly, the same text
 * `JSON.stringify` gives for the skeleton as a tree of objects (keys in
 * their order, undefined members left out, functions as JSON leaves them),
 * without building that tree: it runs once for every usage record. Its
 * pieces go into one array joined once, so the text is one flat string that
 * the shape dictionary hashes without first copying a rope of hundreds of
 * small concatenations (a chat record's split and lookup took 9.5 µs that
 * way, 2.5 % of a loaded gateway's CPU).
 */
export function splitUsageRecordParts(parts: UsageRecordParts): SplitRecord {
  const figures: unknown[] = [];
  const out: string[] = ['{'];
  for (const name of PART_NAMES) {
    const at = out.length;
    out.push(out.length > 1 ? `,"${name}":` : `"${name}":`);
    if (!writeSkeleton(parts[name] ?? null, KEEPS_STRINGS[name], figures, out)) out.length = at;
  }
  out.push('}');
  return { skeleton: out.join(''), figures };
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

/** A mark as JSON text: U+0001 is written as `\u0001`, as `JSON.stringify` writes it. */
const markJson = (index: number) => `"\\u0001${index}"`;
/** The marks of a record's first figures, written once. */
const MARKS_JSON = Array.from({ length: 64 }, (_, i) => markJson(i));

/**
 * Keys and kept strings as JSON text, remembered for the first ones seen
 * (the gateway's own names, the catalog's, the upstream usage fields it
 * meets): a bounded cache, since an upstream's raw usage may name anything.
 */
const QUOTED = new Map<string, string>();
const QUOTED_LIMIT = 2_000;

function quoted(text: string): string {
  let json = QUOTED.get(text);
  if (json === undefined) {
    json = JSON.stringify(text);
    if (QUOTED.size < QUOTED_LIMIT) QUOTED.set(text, json);
  }
  return json;
}

/**
 * Writes `value`'s skeleton as JSON text onto `out`, its figures pushed onto
 * `figures`. Returns false, having written nothing, where JSON has no value
 * (undefined, a function, a symbol).
 */
function writeSkeleton(value: unknown, keepStrings: boolean, figures: unknown[], out: string[]): boolean {
  if (typeof value === 'number' || (typeof value === 'string' && !(keepStrings && !value.startsWith(MARK)))) {
    const index = figures.push(value) - 1;
    out.push(MARKS_JSON[index] ?? markJson(index));
    return true;
  }
  if (Array.isArray(value)) {
    out.push('[');
    for (let i = 0; i < value.length; i++) {
      if (i) out.push(',');
      if (!writeSkeleton(value[i], keepStrings, figures, out)) out.push('null');
    }
    out.push(']');
    return true;
  }
  if (value !== null && typeof value === 'object') {
    out.push('{');
    let members = 0;
    for (const k in value) {
      if (!Object.hasOwn(value, k)) continue;
      const v = (value as Record<string, unknown>)[k];
      if (v === undefined) continue;
      const at = out.length;
      out.push(members ? `,${quoted(k)}:` : `${quoted(k)}:`);
      if (writeSkeleton(v, keepStrings, figures, out)) members++;
      else out.length = at;
    }
    out.push('}');
    return true;
  }
  if (value === undefined || typeof value === 'function' || typeof value === 'symbol') return false;
  out.push(value === null ? 'null' : typeof value === 'string' ? quoted(value) : JSON.stringify(value));
  return true;
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
