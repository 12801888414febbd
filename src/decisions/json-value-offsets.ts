/**
 * Where each string value two levels down in a JSON object starts: for
 * `{"q1":{"answer":"yes"}}`, the offset of the `y` under the key
 * `q1` + NUL + `answer`. A small scanner over the text as the model wrote
 * it (any spacing), so that the token at that offset can be found in the
 * model's log-probabilities. Returns an empty map for text that is not one
 * JSON object.
 */
export function nestedStringOffsets(text: string): Map<string, number> {
  const found = new Map<string, number>();
  try {
    const scanner = new Scanner(text);
    scanner.value([], found);
    return found;
  } catch {
    return new Map();
  }
}

class Scanner {
  private at = 0;

  constructor(private readonly text: string) {}

  value(path: string[], found: Map<string, number>): void {
    this.skipSpace();
    const c = this.text[this.at];
    if (c === '{') return this.object(path, found);
    if (c === '[') return this.array(path, found);
    if (c === '"') {
      const start = this.at + 1;
      this.string();
      if (path.length === 2) found.set(`${path[0]}\u0000${path[1]}`, start);
      return;
    }
    const literal = /^(?:-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null)/.exec(this.text.slice(this.at, this.at + 64));
    if (!literal) throw new Error('not JSON');
    this.at += literal[0].length;
  }

  private object(path: string[], found: Map<string, number>): void {
    this.at++;
    this.skipSpace();
    if (this.text[this.at] === '}') return void this.at++;
    for (;;) {
      this.skipSpace();
      const key = this.string();
      this.skipSpace();
      this.expect(':');
      this.value([...path, key], found);
      this.skipSpace();
      if (this.text[this.at] === ',') { this.at++; continue; }
      this.expect('}');
      return;
    }
  }

  private array(path: string[], found: Map<string, number>): void {
    this.at++;
    this.skipSpace();
    if (this.text[this.at] === ']') return void this.at++;
    for (;;) {
      this.value([...path, '[]'], found);
      this.skipSpace();
      if (this.text[this.at] === ',') { this.at++; continue; }
      this.expect(']');
      return;
    }
  }

  /** Reads a string literal at the cursor and returns its value. */
  private string(): string {
    this.expect('"');
    const start = this.at - 1;
    while (this.at < this.text.length) {
      const c = this.text[this.at++];
      if (c === '\\') this.at++;
      else if (c === '"') return JSON.parse(this.text.slice(start, this.at)) as string;
    }
    throw new Error('unterminated string');
  }

  private expect(c: string): void {
    if (this.text[this.at] !== c) throw new Error(`expected ${c}`);
    this.at++;
  }

  private skipSpace(): void {
    while (/\s/.test(this.text[this.at] ?? '')) this.at++;
  }
}
