import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * Recorded provider responses, read once at start-up so that replaying one
 * costs no file I/O on the request path. The folder holds one subfolder per
 * protocol (`openai-chat`, `anthropic`, ...) with `NAME.json` (a whole
 * response body) and `NAME.chunks.txt` (one stream event payload per line);
 * the gateway's repository keeps its recordings in test/fixtures/recorded/
 * (see the README there).
 */
export interface RecordedFixtures {
  /** The exact bytes of `<protocol>/<name>.json`. */
  body(protocol: string, name: string): Buffer | undefined;
  /** The lines of `<protocol>/<name>.chunks.txt`, each one event's payload. */
  chunkLines(protocol: string, name: string): readonly string[] | undefined;
}

const BODY_SUFFIX = '.json';
const CHUNKS_SUFFIX = '.chunks.txt';

/** No folder, or a missing one, gives an empty set: the simulator then answers with generated text only. */
export async function loadRecordedFixtures(folder: string | undefined): Promise<RecordedFixtures> {
  const bodies = new Map<string, Buffer>();
  const chunks = new Map<string, readonly string[]>();
  if (folder !== undefined) await readRecordings(folder, bodies, chunks);
  return {
    body: (protocol, name) => bodies.get(key(protocol, name)),
    chunkLines: (protocol, name) => chunks.get(key(protocol, name)),
  };
}

async function readRecordings(folder: string, bodies: Map<string, Buffer>, chunks: Map<string, readonly string[]>): Promise<void> {
  for (const protocol of await listDirectories(folder)) {
    for (const file of await readdir(join(folder, protocol))) {
      const path = join(folder, protocol, file);
      if (file.endsWith(CHUNKS_SUFFIX)) chunks.set(key(protocol, file.slice(0, -CHUNKS_SUFFIX.length)), splitLines(await readFile(path, 'utf8')));
      else if (file.endsWith(BODY_SUFFIX)) bodies.set(key(protocol, file.slice(0, -BODY_SUFFIX.length)), await readFile(path));
    }
  }
}

/** The error text of a `[sim replay=NAME]` without its recording, naming where it was looked for. */
export function missingRecordingMessage(file: string, folder: string | undefined): string {
  return folder === undefined
    ? `No recorded response '${file}': the simulator was started without a recordings folder (fixturesDir, SIMULATOR_FIXTURES_DIR).`
    : `No recorded response '${file}' in ${folder}.`;
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
