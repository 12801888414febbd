/**
 * What an uploaded file's name may be, and what its extension says. The
 * name is the client's word: it never decides a type that the bytes can
 * prove (see magic-bytes.ts), but it does refuse programs, since a file
 * called `setup.exe` is one whatever its bytes.
 */

/** Extensions of programs and installers, refused for every purpose. Scripts that only run inside an app (js, py) are documents. */
const EXECUTABLE_EXTENSIONS: ReadonlySet<string> = new Set([
  'exe', 'dll', 'bat', 'cmd', 'com', 'msi', 'msp', 'scr', 'ps1', 'psm1', 'vbs', 'vbe', 'jse', 'wsf', 'wsh', 'hta', 'cpl', 'msc', 'lnk', 'reg',
  'gadget', 'pif', 'sh', 'bash', 'command', 'run', 'jar', 'app', 'apk', 'dmg', 'pkg', 'deb', 'rpm', 'appimage', 'bin', 'elf', 'so', 'dylib',
]);

/** Document types recognised by extension when the bytes prove nothing (text formats, Office's zip containers). */
const DOCUMENT_TYPES: Readonly<Record<string, string>> = {
  txt: 'text/plain', text: 'text/plain', log: 'text/plain', md: 'text/markdown', markdown: 'text/markdown',
  csv: 'text/csv', tsv: 'text/tab-separated-values', json: 'application/json', jsonl: 'application/jsonl',
  html: 'text/html', htm: 'text/html', xml: 'application/xml', yaml: 'application/yaml', yml: 'application/yaml',
  css: 'text/css', js: 'text/javascript', mjs: 'text/javascript', ts: 'text/x-typescript', py: 'text/x-python',
  java: 'text/x-java', c: 'text/x-c', h: 'text/x-c', cpp: 'text/x-c++', cs: 'text/x-csharp', go: 'text/x-golang',
  rb: 'text/x-ruby', php: 'text/x-php', rs: 'text/x-rust', sql: 'application/sql', tex: 'text/x-tex', rtf: 'application/rtf',
  doc: 'application/msword', xls: 'application/vnd.ms-excel', ppt: 'application/vnd.ms-powerpoint',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  odt: 'application/vnd.oasis.opendocument.text', ods: 'application/vnd.oasis.opendocument.spreadsheet',
  odp: 'application/vnd.oasis.opendocument.presentation', epub: 'application/epub+zip',
};

export const MAX_FILENAME_LENGTH = 255;

/**
 * The name to store: the last path segment only (a client may send
 * `C:\\Users\\me\\report.pdf`), without control characters, trimmed.
 */
export function cleanFilename(raw: string): string {
  const base = raw.split(/[\\/]/).pop() ?? '';
  return base.replace(/[\u0000-\u001f\u007f]/g, '').trim();
}

/**
 * The extension as Windows reads it: lower-cased, after the last dot, once
 * trailing dots and spaces are gone (`evil.exe.` runs as `evil.exe`) and an
 * NTFS stream suffix is cut (`evil.exe:stream`).
 */
export function extensionOf(filename: string): string {
  const name = filename.replace(/:.*$/, '').replace(/[. ]+$/, '').toLowerCase();
  const dot = name.lastIndexOf('.');
  return dot === -1 ? '' : name.slice(dot + 1);
}

/** Whether the name is a program's or an installer's. */
export function hasExecutableExtension(filename: string): boolean {
  return EXECUTABLE_EXTENSIONS.has(extensionOf(filename));
}

/** The document type the extension names, or undefined. */
export function mimeTypeFromExtension(filename: string): string | undefined {
  return DOCUMENT_TYPES[extensionOf(filename)];
}
