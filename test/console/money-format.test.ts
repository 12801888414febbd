import { formatMicrousd, formatUsd, parseList, parseUsd } from '../../console/src/lib/format';

/** The console's one rule for money, which every page writes amounts with. */
describe('the console writes money one way', () => {
  it.each([
    [0, '$0.00'],
    [300_000, '$0.30'],
    [2_000_000, '$2.00'],
    [29_811, '$0.029811'],
    [123, '$0.000123'],
    [1, '$0.000001'],
    [1_234_500_000, '$1,234.50'],
    [1_000_000_000_001, '$1,000,000.000001'],
    [-5_000_000, '-$5.00'],
    [-1, '-$0.000001'],
  ])('%d micro-USD is %s: at least two decimals, the rest as far as the amount has them, never rounded', (microusd, text) => {
    expect(formatMicrousd(microusd)).toBe(text);
  });

  it.each([
    ['0.3', '$0.30'],
    ['2', '$2.00'],
    ['0.029811', '$0.029811'],
    ['0.00000015', '$0.00000015'],
    ['1500', '$1,500.00'],
    ['007.10', '$7.10'],
    ['-0.5', '-$0.50'],
    ['-0', '$0.00'],
  ])('a catalog price of "%s" dollars is %s, by the same rule', (decimal, text) => {
    expect(formatUsd(decimal)).toBe(text);
  });

  it('reads dollars as typed into micro-USD, keeps a sign for the gateway to judge, and reads nothing it cannot be sure of', () => {
    expect(['5', '0.25', '$1,000', ' 12.5 ', '-2.5', '.5', '0.000001', '-0'].map(parseUsd)).toEqual([5_000_000, 250_000, 1_000_000_000, 12_500_000, -2_500_000, 500_000, 1, 0]);
    expect(['', '.', '-', 'abc', '1.1234567', '1e3', '1.2.3', '9007199254.740992'].map(parseUsd)).toEqual(Array(8).fill(undefined));
  });

  it('reads a typed list of names by commas, spaces or lines, each once', () => {
    expect(parseList(' gpt-4.1-mini, fast\nfast  other,, ')).toEqual(['gpt-4.1-mini', 'fast', 'other']);
    expect(parseList('  ')).toEqual([]);
  });
});
