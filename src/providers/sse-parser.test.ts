import { parseSse } from './sse-parser';

async function collect(parts: string[]) {
  const out = [];
  for await (const e of parseSse((async function* () {
    for (const p of parts) yield Buffer.from(p);
  })())) out.push(e);
  return out;
}

describe('SSE parser', () => {
  it('handles LF, CRLF and CR line ends, split anywhere', async () => {
    const text = 'event: a\ndata: 1\n\nevent: b\r\ndata: 2\r\n\r\ndata: 3\r\rdata: x\ndata: y\n\n';
    const expected = [{ event: 'a', data: '1' }, { event: 'b', data: '2' }, { event: undefined, data: '3' }, { event: undefined, data: 'x\ny' }];
    expect(await collect([text])).toEqual(expected);
    for (let cut = 1; cut < text.length; cut++) expect(await collect([text.slice(0, cut), text.slice(cut)])).toEqual(expected);
  });

  it('skips comments and keeps a final event without its blank line', async () => {
    expect(await collect([': ping\n\ndata: {"a":1}\n\ndata: last'])).toEqual([{ event: undefined, data: '{"a":1}' }, { event: undefined, data: 'last' }]);
  });

  it('decodes multi-byte characters split across chunks', async () => {
    const bytes = Buffer.from('data: héllo ✓\n\n');
    const out = [];
    for await (const e of parseSse((async function* () {
      for (let i = 0; i < bytes.length; i++) yield bytes.subarray(i, i + 1);
    })())) out.push(e);
    expect(out).toEqual([{ event: undefined, data: 'héllo ✓' }]);
  });
});
