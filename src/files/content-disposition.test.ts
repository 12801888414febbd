import { attachmentDisposition } from './content-disposition';

/** What a client gets back from filename* (RFC 8187): the exact name. */
function decodeExtValue(header: string): string {
  const match = /filename\*=UTF-8''([^;\s]*)/.exec(header);
  return decodeURIComponent(match![1]);
}

describe('Content-Disposition for a download', () => {
  it('keeps a plain name as it is in both parameters', () => {
    expect(attachmentDisposition('report.pdf')).toBe(`attachment; filename="report.pdf"; filename*=UTF-8''report.pdf`);
  });

  it.each(['résumé 2026.pdf', '報告書.docx', 'emoji 🎉.txt', "it's (final) *draft*.md", 'a;b=c.txt', '100%.csv'])('round-trips %s through filename*', (name) => {
    const header = attachmentDisposition(name);
    expect(decodeExtValue(header)).toBe(name);
    expect(header).toMatch(/^[\x20-\x7e]*$/);
  });

  it('cannot be broken out of with quotes, backslashes or line breaks', () => {
    const header = attachmentDisposition('a"; filename="evil.exe\\\r\nX-Injected: 1');
    expect(header).not.toMatch(/[\r\n]/);
    const fallback = /filename="([^"]*)"/.exec(header)![1];
    expect(fallback).toBe('a_; filename=_evil.exe___X-Injected: 1');
    expect(header.match(/filename="/g)).toHaveLength(1);
    expect(decodeExtValue(header)).toBe('a"; filename="evil.exe\\\r\nX-Injected: 1');
  });

  it('percent-encodes what RFC 8187 does not allow bare', () => {
    expect(attachmentDisposition("a b'(c).txt")).toContain(`filename*=UTF-8''a%20b%27%28c%29.txt`);
    expect(attachmentDisposition('é')).toContain(`filename="_"; filename*=UTF-8''%C3%A9`);
  });
});
