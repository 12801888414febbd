import { timeOfId, timeOrderedHex, timeWindowOfIds } from './time-ordered-id';

describe('time-ordered ids', () => {
  it('carry the millisecond they were made at, as UUIDv7 hex', () => {
    const at = new Date('2026-12-31T23:59:59.999Z');
    const hex = timeOrderedHex(at);
    expect(hex).toMatch(/^[0-9a-f]{12}7[0-9a-f]{3}[89ab][0-9a-f]{15}$/);
    expect(timeOfId(`req_${hex}`)).toEqual(at);
    expect(timeOrderedHex(at)).not.toBe(hex);
  });

  it('sort by time', () => {
    const ids = [0, 1, 2, 1000].map((ms) => timeOrderedHex(new Date(Date.UTC(2027, 0, 1) + ms)));
    expect([...ids].sort()).toEqual(ids);
  });

  it('say no time for ids made before (random UUIDv4 hex) or of another form', () => {
    expect(timeOfId('req_28df73e5714f43de91087d54d345edcd')).toBeNull();
    expect(timeOfId('req_1')).toBeNull();
    expect(timeWindowOfIds([`req_${timeOrderedHex(new Date())}`, 'req_28df73e5714f43de91087d54d345edcd'])).toBeNull();
  });

  it('give a window around the times of all the ids', () => {
    const early = new Date('2026-12-31T23:59:59.999Z');
    const late = new Date('2027-01-01T00:00:00.000Z');
    const window = timeWindowOfIds([`req_${timeOrderedHex(late)}`, `req_${timeOrderedHex(early)}`])!;
    expect(window.gte.getTime()).toBeLessThan(early.getTime());
    expect(window.lt.getTime()).toBeGreaterThan(late.getTime());
    expect(window.lt.getTime() - window.gte.getTime()).toBeLessThanOrEqual(2 * 3600_000 + 1);
  });
});
