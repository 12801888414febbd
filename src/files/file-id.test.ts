import { isWellFormedId } from '../db/well-formed-id';
import { fileIdTime, newFileId } from './file-id';

describe('file ids', () => {
  it('carry their upload time, to the millisecond, and pass the well-formed id check', () => {
    const at = new Date('2026-11-25T15:00:00.123Z');
    const id = newFileId(at);
    expect(id).toMatch(/^file-[0-9a-f]{32}$/);
    expect(isWellFormedId(id)).toBe(true);
    expect(fileIdTime(id)).toEqual(at);
    expect(newFileId(at)).not.toBe(id);
  });

  it('sort by time as text', () => {
    const earlier = newFileId(new Date(1_000_000));
    const later = newFileId(new Date(2_000_000_000_000));
    expect([later, earlier].sort()).toEqual([earlier, later]);
  });

  it.each(['file-abc', 'file-XYZ00000000000000000000000000000', 'video_0193', '', 'file-0193a1b2c3d4e5f60718293a4b5c6d7e8f'])('%p is not a file id', (id) => {
    expect(fileIdTime(id)).toBeUndefined();
  });
});
