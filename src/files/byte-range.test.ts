import { contentRange, parseRange, unsatisfiedRange } from './byte-range';

describe('the Range header of a download', () => {
  const size = 1000;

  it.each([
    ['bytes=0-99', 0, 99],
    ['bytes=500-', 500, 999],
    ['bytes=-100', 900, 999],
    ['bytes=990-2000', 990, 999],
    ['bytes=0-0', 0, 0],
    ['bytes=999-999', 999, 999],
    ['bytes=-5000', 0, 999],
    ['bytes = 10 - 20', 10, 20],
    ['bytes=0-99999999999999999999999', 0, 999],
  ])('%s is bytes %i to %i', (header, start, end) => {
    expect(parseRange(header, size)).toEqual({ kind: 'partial', start, end });
  });

  it.each([['bytes=1000-'], ['bytes=1000-1001'], ['bytes=-0'], ['bytes=99999999999999999999-']])('%s cannot be satisfied', (header) => {
    expect(parseRange(header, size)).toEqual({ kind: 'unsatisfiable' });
  });

  it('cannot satisfy any range of an empty file', () => {
    expect(parseRange('bytes=0-', 0)).toEqual({ kind: 'unsatisfiable' });
    expect(parseRange('bytes=-1', 0)).toEqual({ kind: 'unsatisfiable' });
  });

  it.each([[undefined], [''], ['bytes=0-1,5-6'], ['items=0-1'], ['bytes=5-1'], ['bytes=-'], ['bytes=a-b'], ['0-1']])('answers the whole file for %p', (header) => {
    expect(parseRange(header, size)).toEqual({ kind: 'full' });
  });

  it('writes Content-Range', () => {
    expect(contentRange({ start: 0, end: 99 }, 1000)).toBe('bytes 0-99/1000');
    expect(unsatisfiedRange(1000)).toBe('bytes */1000');
  });
});
