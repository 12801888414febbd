import { spendRangeParts, type SpendRangeParts } from './spend-range-parts';

const range = (from: string, to: string) => ({ from: new Date(from), to: new Date(to) });
const iso = (parts: SpendRangeParts) => ({
  days: parts.days && [parts.days.from.toISOString(), parts.days.to.toISOString()],
  hours: parts.hours.map((p) => [p.from.toISOString(), p.to.toISOString()]),
  records: parts.records.map((p) => [p.from.toISOString(), p.to.toISOString()]),
});

describe('a spend range cut into roll-up and record parts', () => {
  it('whole UTC days need no record at all', () => {
    expect(iso(spendRangeParts(range('2026-11-01T00:00:00Z', '2026-11-25T00:00:00Z'), true))).toEqual({
      days: ['2026-11-01T00:00:00.000Z', '2026-11-25T00:00:00.000Z'],
      hours: [],
      records: [],
    });
  });

  it('the last 30 days up to now: whole days, whole hours at both ends, the minutes beyond them from the records', () => {
    expect(iso(spendRangeParts(range('2026-10-26T14:25:07.123Z', '2026-11-25T14:25:07.123Z'), true))).toEqual({
      days: ['2026-10-27T00:00:00.000Z', '2026-11-25T00:00:00.000Z'],
      hours: [
        ['2026-10-26T15:00:00.000Z', '2026-10-27T00:00:00.000Z'],
        ['2026-11-25T00:00:00.000Z', '2026-11-25T14:00:00.000Z'],
      ],
      records: [
        ['2026-10-26T14:25:07.123Z', '2026-10-26T15:00:00.000Z'],
        ['2026-11-25T14:00:00.000Z', '2026-11-25T14:25:07.123Z'],
      ],
    });
  });

  it('without hourly roll-ups, the ends that are not whole days come from the records', () => {
    expect(iso(spendRangeParts(range('2026-10-26T14:25:00Z', '2026-11-25T03:00:00Z'), false))).toEqual({
      days: ['2026-10-27T00:00:00.000Z', '2026-11-25T00:00:00.000Z'],
      hours: [],
      records: [
        ['2026-10-26T14:25:00.000Z', '2026-10-27T00:00:00.000Z'],
        ['2026-11-25T00:00:00.000Z', '2026-11-25T03:00:00.000Z'],
      ],
    });
  });

  it('less than a day across midnight: hours on both sides of it, no day', () => {
    expect(iso(spendRangeParts(range('2026-11-24T21:30:00Z', '2026-11-25T02:00:00Z'), true))).toEqual({
      days: null,
      hours: [['2026-11-24T22:00:00.000Z', '2026-11-25T02:00:00.000Z']],
      records: [['2026-11-24T21:30:00.000Z', '2026-11-24T22:00:00.000Z']],
    });
  });

  it('within one hour: the records alone', () => {
    expect(iso(spendRangeParts(range('2026-11-24T21:30:00Z', '2026-11-24T21:59:59.999Z'), true))).toEqual({
      days: null,
      hours: [],
      records: [['2026-11-24T21:30:00.000Z', '2026-11-24T21:59:59.999Z']],
    });
  });

  it('parts are disjoint and cover the range exactly, whatever the bounds', () => {
    for (let i = 0; i < 2000; i++) {
      const from = Date.UTC(2026, 10, 1) + Math.floor(Math.random() * 20 * 86_400_000);
      const to = from + 1 + Math.floor(Math.random() * (i % 2 ? 3 * 3_600_000 : 10 * 86_400_000));
      const withHours = i % 3 !== 0;
      const parts = spendRangeParts({ from: new Date(from), to: new Date(to) }, withHours);
      const spans = [...(parts.days ? [parts.days] : []), ...parts.hours, ...parts.records]
        .map((p) => [p.from.getTime(), p.to.getTime()])
        .sort((a, b) => a[0] - b[0]);
      expect(spans[0][0]).toBe(from);
      expect(spans[spans.length - 1][1]).toBe(to);
      for (let s = 0; s < spans.length; s++) {
        expect(spans[s][0]).toBeLessThan(spans[s][1]);
        if (s > 0) expect(spans[s][0]).toBe(spans[s - 1][1]);
      }
      // What is left to the records is short: under two hours with hourly roll-ups, under two days without.
      for (const r of parts.records) expect(r.to.getTime() - r.from.getTime()).toBeLessThan(withHours ? 2 * 3_600_000 : 2 * 86_400_000);
    }
  });
});
