import { isBase64DataUrl, isHttpsUrl, parseDataUrl } from './data-url';

describe('data URLs of any size', () => {
  const big = `data:image/png;base64,${'A'.repeat(40 * 1024 * 1024)}`;

  it('reads a 40 MB payload deep in the stack, where a pattern spanning the payload overflows V8\'s backtracking stack', () => {
    const deep = (depth: number): boolean => (depth ? deep(depth - 1) : isBase64DataUrl(big, (type) => type === 'image/png'));
    expect(deep(5000)).toBe(true);
    expect(isBase64DataUrl(big, (type) => type === 'image/png')).toBe(true);
    expect(isBase64DataUrl(`${big}!`, () => true)).toBe(false);
    expect(parseDataUrl(big)?.base64.length).toBe(40 * 1024 * 1024);
  });

  it.each([
    ['data:image/png;base64,iVBORw0KGgo=', true],
    ['data:application/pdf;name=a.pdf;base64,JVBERi0=', true],
    ['data:image/png;base64,', false],
    ['data:image/png,iVBORw0KGgo=', false],
    ['data:image/png;base64,iVBOR w0KGgo=', false],
    ['https://example.com/a.png', false],
  ])('%s is a base64 data URL: %s', (url, expected) => {
    expect(isBase64DataUrl(url, () => true)).toBe(expected);
  });

  it('takes whitespace and emptiness only when asked, and gives the media type in lower case', () => {
    expect(isBase64DataUrl('data:image/png;base64,iVBOR\nw0KGgo=', () => true, { whitespace: true })).toBe(true);
    expect(isBase64DataUrl('data:text/plain;base64,', () => true, { empty: true })).toBe(true);
    expect(parseDataUrl('data:Image/PNG;base64,iV BO\nRw==')).toEqual({ mediaType: 'image/png', base64: 'iVBORw==' });
  });

  it('checks https URLs for scheme, whitespace and length', () => {
    expect(isHttpsUrl('https://example.com/a.png')).toBe(true);
    expect(isHttpsUrl('http://example.com/a.png')).toBe(false);
    expect(isHttpsUrl('https://exa mple.com')).toBe(false);
    expect(isHttpsUrl(`https://e.com/${'a'.repeat(3000)}`, 2048)).toBe(false);
  });
});
