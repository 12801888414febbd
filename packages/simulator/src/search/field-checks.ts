/** Type checks of request fields that several search protocols share. */

export function isStringList(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === 'string');
}

export function isIntegerIn(value: unknown, min: number, max: number): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max;
}

/** A non-negative integer written as a JSON number or as digits (`"3"`, as query strings and forms carry it), else undefined. */
export function integerOf(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isInteger(value) && value >= 0 ? value : undefined;
  return typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : undefined;
}

/** A JSON body's fields without the null ones: a client may write an option it leaves unset as `null`, which means the default. */
export function setFields(body: object): { [field: string]: unknown } {
  return Object.fromEntries(Object.entries(body).filter(([, value]) => value !== null));
}
