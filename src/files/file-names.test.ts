import { cleanFilename, extensionOf, hasExecutableExtension, mimeTypeFromExtension } from './file-names';
import { detectMimeType, UNKNOWN_MIME_TYPE } from './mime-type';

describe('executable file names', () => {
  it.each(['setup.exe', 'EVIL.EXE', 'lib.dll', 'run.bat', 'x.cmd', 'script.ps1', 'a.vbs', 'install.sh', 'app.jar', 'x.apk', 'x.msi', 'x.scr', 'x.lnk', 'lib.so', 'lib.dylib', 'x.deb'])(
    '%s is refused',
    (name) => expect(hasExecutableExtension(name)).toBe(true),
  );

  it.each([
    ['a trailing dot, which Windows drops', 'evil.exe.'],
    ['trailing spaces and dots', 'evil.exe . .'],
    ['an NTFS stream suffix', 'evil.exe:Zone.Identifier'],
    ['a document name in front', 'report.pdf.exe'],
    ['a hidden script', '.sh'],
  ])('%s is still a program', (_why, name) => expect(hasExecutableExtension(name)).toBe(true));

  it.each(['report.pdf', 'notes.txt', 'app.js', 'main.py', 'evil.exe.txt', 'exe', 'Makefile', 'archive.zip', 'data.json'])('%s is not', (name) => {
    expect(hasExecutableExtension(name)).toBe(false);
  });

  it('reads the extension as Windows does', () => {
    expect(extensionOf('A.Tar.GZ')).toBe('gz');
    expect(extensionOf('noext')).toBe('');
    expect(extensionOf('.bashrc')).toBe('bashrc');
  });
});

describe('cleaning a name', () => {
  it('keeps the last path segment, without control characters', () => {
    expect(cleanFilename('C:\\Users\\me\\report.pdf')).toBe('report.pdf');
    expect(cleanFilename('../../etc/passwd')).toBe('passwd');
    expect(cleanFilename(' a\r\nb\u0000.txt ')).toBe('ab.txt');
    expect(cleanFilename('résumé 2026.pdf')).toBe('résumé 2026.pdf');
    expect(cleanFilename('dir/')).toBe('');
  });
});

describe('the stored media type', () => {
  const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

  it('trusts the bytes over the name', () => {
    expect(detectMimeType(png, 'photo.txt')).toBe('image/png');
    expect(detectMimeType(Buffer.from('%PDF-1.4'), 'report.bin.txt')).toBe('application/pdf');
  });

  it('takes a document type from the extension when the bytes prove nothing', () => {
    expect(detectMimeType(Buffer.from('a,b\n1,2'), 'data.CSV')).toBe('text/csv');
    expect(detectMimeType(Buffer.from('PK\u0003\u0004'), 'report.docx')).toBe('application/vnd.openxmlformats-officedocument.wordprocessingml.document');
    expect(mimeTypeFromExtension('notes.md')).toBe('text/markdown');
  });

  it('never believes an image or PDF name the bytes do not bear out', () => {
    expect(detectMimeType(Buffer.from('just text'), 'photo.png')).toBe(UNKNOWN_MIME_TYPE);
    expect(detectMimeType(Buffer.from('just text'), 'paper.pdf')).toBe(UNKNOWN_MIME_TYPE);
    expect(detectMimeType(Buffer.from('just text'), 'noext')).toBe(UNKNOWN_MIME_TYPE);
  });
});
