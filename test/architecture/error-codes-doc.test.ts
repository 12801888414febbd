import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ERROR_CODES, TASK_ERROR_CODES, errorType } from '../../src/errors/error-codes';

const page = readFileSync(path.join(__dirname, '..', '..', 'docs', 'errors.md'), 'utf8');

/** The rows of the markdown table whose header line is `header`. */
function tableRows(header: string): string[][] {
  const lines = page.split('\n');
  const start = lines.indexOf(header);
  expect(start).toBeGreaterThan(-1);
  const rows: string[][] = [];
  for (const line of lines.slice(start + 2)) {
    if (!line.startsWith('|')) break;
    rows.push(line.split('|').slice(1, -1).map((cell) => cell.trim()));
  }
  return rows;
}

const unquote = (cell: string) => cell.replace(/^`|`$/g, '');

describe('docs/errors.md documents exactly the error-code registry', () => {
  it('lists every request error code with its status and type, and no other', () => {
    const documented = tableRows('| status | code | type | meaning |').map(([status, code, type]) => [unquote(code), Number(status), unquote(type)]);
    const registered = Object.entries(ERROR_CODES).map(([code, spec]) => [code, spec.status, errorType(code as keyof typeof ERROR_CODES)]);
    expect(documented.sort()).toEqual(registered.sort());
  });

  it('lists every task error code, and no other', () => {
    const documented = tableRows('| task error code | meaning |').map(([code]) => unquote(code));
    expect(documented.sort()).toEqual(Object.keys(TASK_ERROR_CODES).sort());
  });
});
