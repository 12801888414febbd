import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * Recorded provider responses, read once at start-up so that replaying one
 * costs no file I/O on the request path. The folder holds one subfolder per
 * protocol (`openai-chat`, `anthropic`, ...) with `NAME.json` (a whole
 * response body) and `NAME.chunks.txt` (one stream event payload per line);
 * see test/fixtures/recorded/README.md.
 */
export interface RecordedFixtures {
  /** The exact bytes of `<protocol>/<name>.json`. */
  body(protocol: string, name: string): Buffer | undefined;
  /** The lines of `<protocol>/<name>.chunks.txt`, each one event's payload. */
  chunkLines(protocol: string, name: string): readonly string[] | undefined;
}

const BODY_SUFFIX = '.json';
const CHUNKS_SUFFIX = '.chunks.txt';

/** A missing folder gives an empty set: an installed gateway without its tests still runs the simulator. */
export async function loadRecordedFixtures(folder: string): Promise<RecordedFixtures> {
  const bodies = new Map<string, Buffer>();
  const chunks = new Map<string, readonly string[]>();
  for (const protocol of await listDirectories(folder)) {
    for (const file of await readdir(join(folder, protocol))) {
      const path = join(folder, protocol, file);
      if (file.endsWith(CHUNKS_SUFFIX)) chunks.set(key(protocol, file.slice(0, -CHUNKS_SUFFIX.length)), splitLines(await readFile(path, 'utf8')));
      else if (file.endsWith(BODY_SUFFIX)) bodies.set(key(protocol, file.slice(0, -BODY_SUFFIX.length)), await readFile(path));
    }
  }
  return {
    body: (protocol, name) => bodies.get(key(protocol, name)),
    chunkLines: (protocol, name) => chunks.get(key(protocol, name)),
  };
}

async function listDirectories(folder: string): Promise<string[]> {
  try {
    const entries = await readdir(folder, { withFileTypes: true });
    return entries.filter((entry) => entry.isDirectory()).map((entry) => entry.name);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}

function splitLines(text: string): string[] {
  return text.split(/\r?\n/).filter((line) => line.length > 0);
}

function key(protocol: string, name: string): string {
  return `${protocol}/${name}`;
}
