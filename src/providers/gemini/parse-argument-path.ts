/** One step down into the arguments: a member name, or an array index. */
export type ArgumentPathStep = string | number;

/**
 * The steps of the JSON Path (RFC 9535) by which Gemini names a streamed
 * argument: `$.location`, `$.a.b`, `$.items[0].name`, and the bracket form
 * `$['odd key']` for names that are not identifiers. Only singular paths,
 * names and indices, can name one value; wildcards, slices, filters and
 * descendants cannot, so they (and anything else) give undefined, as does
 * the bare root `$`, which names no argument.
 * @see https://datatracker.ietf.org/doc/html/rfc9535#name-normalized-paths
 */
export function parseArgumentPath(path: string): ArgumentPathStep[] | undefined {
  if (!path.startsWith('$')) return undefined;
  const steps: ArgumentPathStep[] = [];
  const step = new RegExp(STEP.source, 'y');
  for (let at = 1; at < path.length; at = step.lastIndex) {
    step.lastIndex = at;
    const match = step.exec(path);
    if (!match) return undefined;
    const [, dotted, index, singleQuoted, doubleQuoted] = match;
    const name = dotted ?? (index !== undefined ? Number(index) : unquote(singleQuoted, doubleQuoted));
    if (name === undefined) return undefined;
    steps.push(name);
  }
  return steps.length ? steps : undefined;
}

/** `.name`, `[3]`, `['name']` or `["name"]`; a dotted name stops at the next `.` or `[` and holds no quote, space or `*`. */
const STEP = /\.([^.[\]'"*\s]+)|\[(0|[1-9]\d{0,8})\]|\['((?:[^'\\]|\\.)*)'\]|\["((?:[^"\\]|\\.)*)"\]/;

/** RFC 9535 escapes are JSON's, plus `\'` in single quotes; a bad escape makes the path unreadable. */
function unquote(singleQuoted: string | undefined, doubleQuoted: string | undefined): string | undefined {
  const json = doubleQuoted ?? (singleQuoted === undefined ? undefined : singleQuotedAsJson(singleQuoted));
  if (json === undefined) return undefined;
  try {
    return JSON.parse(`"${json}"`) as string;
  } catch {
    return undefined;
  }
}

/** The inside of a single-quoted name as the inside of a JSON string: `\'` unescaped, a bare `"` escaped. */
function singleQuotedAsJson(text: string): string {
  let json = '';
  for (let at = 0; at < text.length; at++) {
    const char = text[at];
    if (char === '\\') {
      const next = text[++at] ?? '';
      json += next === "'" ? "'" : `\\${next}`;
    } else {
      json += char === '"' ? '\\"' : char;
    }
  }
  return json;
}
