import { clip, hostOf, inDomains, plainText, publishedAt, rankScore, siteOperators, timeRangeStart, withSiteOperators } from './search-hits';

const NOW = Date.parse('2025-03-31T12:00:00.000Z');

describe('hostOf', () => {
  it.each([
    ['https://www.Example.com/a?b=c', 'example.com'],
    ['https://news.bbc.co.uk/x', 'news.bbc.co.uk'],
    ['http://127.0.0.1:8080/', '127.0.0.1'],
    ['not a url', ''],
  ])('%s -> %s', (url, host) => expect(hostOf(url)).toBe(host));
});

describe('inDomains', () => {
  it.each([
    ['https://example.com/x', ['example.com'], true],
    ['https://docs.example.com/x', ['example.com'], true],
    ['https://www.EXAMPLE.com/x', ['Example.COM'], true],
    ['https://example.com/x', ['www.example.com'], true],
    ['https://notexample.com/x', ['example.com'], false],
    ['https://example.com.evil.io/x', ['example.com'], false],
    ['https://example.com/x', ['docs.example.com'], false],
    ['https://b.org/x', ['a.com', 'b.org'], true],
    ['https://example.com/x', ['https://example.com/path', ''], true],
    ['https://example.com/x', [], false],
    ['garbage', ['example.com'], false],
  ])('%s in %j: %s', (url, domains, expected) => expect(inDomains(url, domains)).toBe(expected));
});

describe('siteOperators', () => {
  it.each([
    [[], [], ''],
    [['a.com'], [], 'site:a.com'],
    [['a.com', 'B.com'], [], '(site:a.com OR site:b.com)'],
    [[], ['c.com'], '-site:c.com'],
    [['a.com', 'b.com'], ['c.com', 'd.org'], '(site:a.com OR site:b.com) -site:c.com -site:d.org'],
  ])('include %j exclude %j -> %s', (include, exclude, text) => expect(siteOperators(include, exclude)).toBe(text));

  it('appends them to a query, or leaves the query alone', () => {
    expect(withSiteOperators('rust', ['docs.rs'], ['reddit.com'])).toBe('rust site:docs.rs -site:reddit.com');
    expect(withSiteOperators('rust', [], [])).toBe('rust');
  });
});

describe('rankScore', () => {
  it('is 1 for the first, falls evenly, and stays above 0', () => {
    expect([0, 1, 2, 3].map((i) => rankScore(i, 4))).toEqual([1, 0.75, 0.5, 0.25]);
    expect(rankScore(0, 1)).toBe(1);
    expect(rankScore(9, 4)).toBeGreaterThan(0);
  });
});

describe('publishedAt', () => {
  it.each([
    ['2024-03-12T08:00:00.000Z', '2024-03-12T08:00:00.000Z'],
    ['2024-03-12T08:00:00', '2024-03-12T08:00:00.000Z'],
    ['2024-03-12T08:00:00.123456', '2024-03-12T08:00:00.123Z'],
    ['2024-03-12T10:00:00+02:00', '2024-03-12T08:00:00.000Z'],
    ['2024-03-12', '2024-03-12T00:00:00.000Z'],
    ['Tue, 12 Mar 2024 08:00:00 GMT', '2024-03-12T08:00:00.000Z'],
    ['Tue, 12 Mar 2024 10:00:00 +0200', '2024-03-12T08:00:00.000Z'],
    ['Mar 12, 2024', '2024-03-12T00:00:00.000Z'],
    ['March 12, 2024', '2024-03-12T00:00:00.000Z'],
    ['2 hours ago', '2025-03-31T10:00:00.000Z'],
    ['1 hour ago', '2025-03-31T11:00:00.000Z'],
    ['an hour ago', '2025-03-31T11:00:00.000Z'],
    ['45 mins ago', '2025-03-31T11:15:00.000Z'],
    ['3 days ago', '2025-03-28T12:00:00.000Z'],
    ['1 week ago', '2025-03-24T12:00:00.000Z'],
    ['2 months ago', '2025-01-30T12:00:00.000Z'],
    ['1 year ago', '2024-03-31T12:00:00.000Z'],
    ['Yesterday', '2025-03-30T12:00:00.000Z'],
    ['', null],
    [null, null],
    [undefined, null],
    ['-3', null],
    ['recently', null],
    ['3 fortnights ago', null],
    ['2024-13-45', null],
  ])('%j -> %s', (text, iso) => expect(publishedAt(text, NOW)).toBe(iso));

  it('reads a date without a zone as UTC whatever the zone of the server', () => {
    const saved = process.env.TZ;
    process.env.TZ = 'America/New_York';
    try {
      expect(publishedAt('Mar 12, 2024', NOW)).toBe('2024-03-12T00:00:00.000Z');
      expect(publishedAt('2024-03-12T08:00:00', NOW)).toBe('2024-03-12T08:00:00.000Z');
    } finally {
      if (saved === undefined) delete process.env.TZ;
      else process.env.TZ = saved;
    }
  });
});

describe('timeRangeStart', () => {
  it.each([
    ['day', '2025-03-30T12:00:00.000Z'],
    ['week', '2025-03-24T12:00:00.000Z'],
    ['month', '2025-03-03T12:00:00.000Z'],
    ['year', '2024-03-31T12:00:00.000Z'],
  ] as const)('%s back from 31 March -> %s', (range, iso) => expect(timeRangeStart(range, NOW).toISOString()).toBe(iso));
});

describe('plainText', () => {
  it('drops tags, scripts and styles, decodes entities, and collapses white space', () => {
    expect(plainText('The <strong>Web Authentication</strong> API &amp; you')).toBe('The Web Authentication API & you');
    expect(plainText('it&#x27;s &#39;quoted&#39; &quot;twice&quot; &lt;b&gt; &unknown;')).toBe(`it's 'quoted' "twice" <b> &unknown;`);
    expect(plainText('<html><style>p{color:red}</style><script>alert(1)</script><h1>503</h1>\n\n<p>Service  down</p></html>')).toBe('503 Service down');
  });
});

describe('clip', () => {
  it('keeps short text, collapses white space, and cuts long text with an ellipsis within the bound', () => {
    expect(clip('short', 10)).toBe('short');
    expect(clip('  two\n\nlines  ', 20)).toBe('two lines');
    expect(clip('abcdefghijklmnop', 10)).toBe('abcdefghi…');
    expect(clip('abcdefghijklmnop', 10)).toHaveLength(10);
  });

  it('never splits a surrogate pair', () => {
    const cut = clip('12345678😀😀😀', 10);
    expect(cut).toBe('12345678…');
    expect(cut.length).toBeLessThanOrEqual(10);
  });
});
