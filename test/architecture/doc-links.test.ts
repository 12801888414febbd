import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * Every relative link of the documentation leads somewhere: the file it
 * names exists, and the heading its `#anchor` names is on that page (as
 * GitHub spells a heading's anchor). A section moved from one page to
 * another breaks the links into it here, not for a reader.
 */
const root = path.join(__dirname, '..', '..');
const pages = ['README.md', 'ARCHITECTURE.md', 'src/README.md', ...readdirSync(path.join(root, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];

/** GitHub's anchor of each heading of a page: lower case, punctuation dropped, spaces as hyphens, repeats numbered. */
function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const result = new Set<string>();
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (/^\s*```/.test(line)) fenced = !fenced;
    const heading = !fenced && /^#{1,6}\s+(.*)$/.exec(line);
    if (!heading) continue;
    const slug = heading[1].trim().toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-');
    const n = seen.get(slug) ?? 0;
    seen.set(slug, n + 1);
    result.add(n ? `${slug}-${n}` : slug);
  }
  return result;
}

/** The page's links outside code: `[text](target)`, targets that are not web addresses. */
function relativeLinks(markdown: string): string[] {
  const prose = markdown.replace(/^( *)```[^]*?^\1```$/gm, '').replace(/`[^`\n]*`/g, '');
  return [...prose.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]).filter((target) => !/^[a-z]+:/i.test(target));
}

describe('the documentation links', () => {
  it.each(pages)('%s links only to files and headings that exist', (page) => {
    const markdown = readFileSync(path.join(root, page), 'utf8');
    const broken: string[] = [];
    for (const link of relativeLinks(markdown)) {
      const [file, anchor] = link.split('#');
      const target = file ? path.join(path.dirname(path.join(root, page)), file) : path.join(root, page);
      if (!existsSync(target)) broken.push(`${link}: no such file`);
      else if (anchor !== undefined && target.endsWith('.md') && !anchors(readFileSync(target, 'utf8')).has(anchor)) broken.push(`${link}: no such heading`);
    }
    expect(broken).toEqual([]);
  });
});
