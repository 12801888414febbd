/**
 * What a file's first bytes say it is. Types are judged by content, never by
 * the name or the Content-Type a client sent: both are the client's word,
 * and a renamed program or a text file called `photo.png` must not pass for
 * something else.
 */

/** How many leading bytes the checks below need (WebP's signature ends at byte 12). */
export const MAGIC_BYTES_NEEDED = 16;

export type ImageMimeType = 'image/png' | 'image/jpeg' | 'image/gif' | 'image/webp';

/** The image types a `vision` file may be. */
export const VISION_MIME_TYPES: ReadonlySet<string> = new Set<ImageMimeType>(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const JPEG = Buffer.from([0xff, 0xd8, 0xff]);
const PDF = Buffer.from('%PDF-', 'latin1');

/** The media type the leading bytes prove (PDF and the four vision images), or undefined. */
export function mimeTypeFromMagic(head: Buffer): string | undefined {
  if (startsWith(head, PNG)) return 'image/png';
  if (startsWith(head, JPEG)) return 'image/jpeg';
  const ascii6 = head.subarray(0, 6).toString('latin1');
  if (ascii6 === 'GIF87a' || ascii6 === 'GIF89a') return 'image/gif';
  if (head.subarray(0, 4).toString('latin1') === 'RIFF' && head.subarray(8, 12).toString('latin1') === 'WEBP') return 'image/webp';
  if (startsWith(head, PDF)) return 'application/pdf';
  return undefined;
}

/**
 * Signatures of native programs: Windows PE (`MZ`), ELF, and Mach-O (32 and
 * 64 bit, either byte order, and universal binaries, whose `CA FE BA BE`
 * Java class files share: those are programs too).
 */
const EXECUTABLE_SIGNATURES: Array<{ name: string; bytes: Buffer }> = [
  { name: 'Windows executable (MZ)', bytes: Buffer.from('MZ', 'latin1') },
  { name: 'ELF executable', bytes: Buffer.from([0x7f, 0x45, 0x4c, 0x46]) },
  { name: 'Mach-O executable', bytes: Buffer.from([0xfe, 0xed, 0xfa, 0xce]) },
  { name: 'Mach-O executable', bytes: Buffer.from([0xfe, 0xed, 0xfa, 0xcf]) },
  { name: 'Mach-O executable', bytes: Buffer.from([0xce, 0xfa, 0xed, 0xfe]) },
  { name: 'Mach-O executable', bytes: Buffer.from([0xcf, 0xfa, 0xed, 0xfe]) },
  { name: 'Mach-O universal binary or Java class', bytes: Buffer.from([0xca, 0xfe, 0xba, 0xbe]) },
];

/** The kind of program the leading bytes are, or undefined for anything else. */
export function executableKind(head: Buffer): string | undefined {
  return EXECUTABLE_SIGNATURES.find((s) => startsWith(head, s.bytes))?.name;
}

function startsWith(head: Buffer, prefix: Buffer): boolean {
  return head.length >= prefix.length && head.subarray(0, prefix.length).equals(prefix);
}
