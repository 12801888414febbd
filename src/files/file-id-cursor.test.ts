import { decodeCursor, InvalidPageRequestError } from '../db/page';
import { newFileId } from './file-id';
import { fileIdCursor } from './file-id-cursor';

describe('the files list cursor (OpenAI\'s `after`)', () => {
  it('reads a file id as the position of that file, its upload time included', () => {
    const createdAt = new Date('2026-03-01T10:00:00.123Z');
    const id = newFileId(createdAt);
    expect(fileIdCursor.encode({ createdAt, id })).toBe(id);
    expect(decodeCursor(fileIdCursor, id)).toEqual({ createdAt, id });
  });

  it.each(['file-abc', '', 'rec_123'])('refuses %p, naming `after`', (text) => {
    expect(() => decodeCursor(fileIdCursor, text)).toThrow(InvalidPageRequestError);
    expect(() => decodeCursor(fileIdCursor, text)).toThrow('"after" must be a file id this API returned (the last id of the previous page).');
  });
});
