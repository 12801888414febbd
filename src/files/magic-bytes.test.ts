import { executableKind, MAGIC_BYTES_NEEDED, mimeTypeFromMagic } from './magic-bytes';

const bytes = (...values: number[]) => Buffer.from(values);
const text = (s: string) => Buffer.from(s, 'latin1');

describe('what the first bytes prove', () => {
  it.each([
    ['PNG', bytes(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13), 'image/png'],
    ['JPEG', bytes(0xff, 0xd8, 0xff, 0xe0, 0, 0x10), 'image/jpeg'],
    ['GIF87a', text('GIF87a\x01\x00'), 'image/gif'],
    ['GIF89a', text('GIF89a\x01\x00'), 'image/gif'],
    ['WebP', text('RIFF\x24\x00\x00\x00WEBPVP8 '), 'image/webp'],
    ['PDF', text('%PDF-1.4\n%\xe2\xe3'), 'application/pdf'],
  ])('%s', (_name, head, type) => {
    expect(mimeTypeFromMagic(head)).toBe(type);
  });

  it.each([
    ['text', text('hello, world')],
    ['a RIFF that is not WebP (WAV)', text('RIFF\x24\x00\x00\x00WAVEfmt ')],
    ['a PNG signature cut short', bytes(0x89, 0x50, 0x4e, 0x47)],
    ['nothing', Buffer.alloc(0)],
    ['"%PDF" without the dash', text('%PDF1.4')],
  ])('proves nothing for %s', (_name, head) => {
    expect(mimeTypeFromMagic(head)).toBeUndefined();
  });

  it('needs no more than MAGIC_BYTES_NEEDED bytes for any signature', () => {
    expect(MAGIC_BYTES_NEEDED).toBeGreaterThanOrEqual(12);
  });
});

describe('executable signatures', () => {
  it.each([
    ['a Windows PE', text('MZ\x90\x00\x03\x00')],
    ['ELF', bytes(0x7f, 0x45, 0x4c, 0x46, 2, 1, 1)],
    ['Mach-O 32 big-endian', bytes(0xfe, 0xed, 0xfa, 0xce, 0, 0)],
    ['Mach-O 64 big-endian', bytes(0xfe, 0xed, 0xfa, 0xcf, 0, 0)],
    ['Mach-O 32 little-endian', bytes(0xce, 0xfa, 0xed, 0xfe, 7, 0)],
    ['Mach-O 64 little-endian', bytes(0xcf, 0xfa, 0xed, 0xfe, 7, 0)],
    ['a universal binary', bytes(0xca, 0xfe, 0xba, 0xbe, 0, 0, 0, 2)],
  ])('%s is a program', (_name, head) => {
    expect(executableKind(head)).toEqual(expect.any(String));
  });

  it.each([
    ['PDF', text('%PDF-1.7')],
    ['text mentioning MZ later', text('Notes on MZ headers')],
    ['lower-case mz', text('mz is not a header')],
    ['a lone M', text('M')],
    ['ELF without its DEL byte', text('ELF file notes')],
  ])('%s is not', (_name, head) => {
    expect(executableKind(head)).toBeUndefined();
  });
});
