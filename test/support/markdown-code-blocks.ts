/** One fenced code block of a markdown page. */
export interface CodeBlock {
  /** The fence's language (`sh`, `ts`, `python`, `graphql`, ...); empty when it names none. */
  language: string;
  /** The block's text, the indentation of the list it sits in removed, without the closing newline. */
  code: string;
  /** The 1-based line of the opening fence, for messages that point at the page. */
  line: number;
  /** The nearest heading above the block. */
  heading: string;
}

/**
 * The fenced blocks (```` ``` ````) of a markdown page in the page's order,
 * those inside list items included (their indentation is removed).
 */
export function codeBlocks(markdown: string, language?: string): CodeBlock[] {
  const blocks: CodeBlock[] = [];
  const lines = markdown.split('\n');
  let heading = '';
  for (let i = 0; i < lines.length; i++) {
    const headingMatch = /^#{1,6}\s+(.*)$/.exec(lines[i]);
    if (headingMatch) {
      heading = headingMatch[1].trim();
      continue;
    }
    const open = /^( *)```([\w+-]*)\s*$/.exec(lines[i]);
    if (!open) continue;
    const indent = open[1];
    const end = lines.findIndex((line, j) => j > i && line === `${indent}\`\`\``);
    if (end === -1) throw new Error(`the code block opened on line ${i + 1} is never closed`);
    const code = lines.slice(i + 1, end).map((line) => (line.startsWith(indent) ? line.slice(indent.length) : line)).join('\n');
    blocks.push({ language: open[2], code, line: i + 1, heading });
    i = end;
  }
  return language === undefined ? blocks : blocks.filter((b) => b.language === language);
}

/**
 * A shell block's commands, as a shell reads them: continuation lines
 * joined, a quoted string that spans lines kept whole, comment lines left
 * out, and a trailing comment (after two spaces) kept off.
 */
export function shellCommands(block: string): string[] {
  const commands: string[] = [];
  let current = '';
  let quote: string | undefined;
  const end = () => {
    const command = current.trim();
    if (command) commands.push(command);
    current = '';
  };
  for (let i = 0; i < block.length; i++) {
    const c = block[i];
    if (!quote && c === '\\' && block[i + 1] === '\n') {
      i++;
      while (block[i + 1] === ' ') i++;
      current += ' ';
      continue;
    }
    if (!quote && c === '\n') {
      end();
      continue;
    }
    if (!quote && c === '#' && (current.trim() === '' || /\s{2}$/.test(current))) {
      // A comment, to the end of its line.
      while (i + 1 < block.length && block[i + 1] !== '\n') i++;
      continue;
    }
    if (!quote && (c === "'" || c === '"')) quote = c;
    else if (quote === c) quote = undefined;
    current += c;
  }
  end();
  return commands;
}
