import { decodeCursor, InvalidPageRequestError } from '../db/page';
import { ledgerCursor } from './ledger';

describe('the ledger cursor (`before`)', () => {
  it('reads a ledger entry id as the start of the older page', () => {
    expect(decodeCursor(ledgerCursor, '42')).toBe('42');
    expect(ledgerCursor.encode('42')).toBe('42');
  });

  it.each(['0', '-1', '1.5', '1234567890123456789', 'abc', ''])('refuses %p, naming `before`', (text) => {
    expect(() => decodeCursor(ledgerCursor, text)).toThrow(InvalidPageRequestError);
    expect(() => decodeCursor(ledgerCursor, text)).toThrow('"before" must be a ledger entry id (a positive integer) from next_before.');
  });
});
