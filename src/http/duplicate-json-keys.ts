import type { GatewayError } from '../errors/gateway-error';

/** A key written twice in one JSON object: where the object is (`questions`, `questions.q1.criteria`) and the key. */
export interface DuplicateKey {
  path: string;
  key: string;
}

/**
 * Objects of a JSON body whose keys are ids and must be unique, and the
 * refusal of a body that repeats one (`JSON.parse` keeps the last of two
 * equal keys without a word). A path is keys joined by dots, `*` standing
 * for any one key or array index.
 */
export interface UniqueKeys {
  paths: readonly string[];
  refusal: (duplicate: DuplicateKey) => GatewayError;
}

interface Frame {
  path: string[];
  isObject: boolean;
  /** The keys seen so far, for a watched object only. */
  keys: Set<string> | undefined;
  /** The key of the value being read (objects), or its index (arrays). */
  at: string;
  index: number;
  expectsKey: boolean;
}

/**
 * The first key repeated in an object at one of `paths`, or undefined.
 * `text` is JSON that `JSON.parse` accepted; one pass, no recursion,
 * strings skipped by searching for their closing quote.
 */
export function findDuplicateKey(text: string, paths: readonly string[]): DuplicateKey | undefined {
  const patterns = paths.map((p) => p.split('.'));
  const watched = (path: string[]) => patterns.some((p) => p.length === path.length && p.every((segment, i) => segment === '*' || segment === path[i]));
  const stack: Frame[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const top = stack[stack.length - 1];
    if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
      const path = top ? [...top.path, top.isObject ? top.at : String(top.index)] : [];
      const isObject = c === 0x7b;
      stack.push({ path, isObject, keys: isObject && watched(path) ? new Set() : undefined, at: '', index: 0, expectsKey: isObject });
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) {
      stack.pop();
    } else if (c === 0x2c /* , */ && top) {
      if (top.isObject) top.expectsKey = true;
      else top.index++;
    } else if (c === 0x22 /* " */) {
      const end = closingQuote(text, i);
      if (top?.isObject && top.expectsKey) {
        const literal = text.slice(i, end + 1);
        const key = literal.includes('\\') ? (JSON.parse(literal) as string) : literal.slice(1, -1);
        if (top.keys?.has(key)) return { path: top.path.join('.'), key };
        top.keys?.add(key);
        top.at = key;
        top.expectsKey = false;
      }
      i = end;
    }
  }
  return undefined;
}

/** The index of the quote that closes the string opened at `open`. */
function closingQuote(text: string, open: number): number {
  let end = text.indexOf('"', open + 1);
  for (;;) {
    let backslashes = 0;
    while (text.charCodeAt(end - 1 - backslashes) === 0x5c) backslashes++;
    if (backslashes % 2 === 0) return end;
    end = text.indexOf('"', end + 1);
  }
}
