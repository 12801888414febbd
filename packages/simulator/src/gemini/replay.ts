import type { StreamScript } from '../event-stream';
import type { RecordedFixtures } from '../fixtures';
import { type GeminiError, missingRecording } from './errors';

/**
 * Responses recorded from the Gemini API, replayed byte for byte: the body
 * of `gemini/<name>.json`, or each line of `gemini/<name>.chunks.txt` as one
 * `data:` event, asked for with the directive `replay=<name>` (the model
 * name is part of the URL, so there is no `recorded:` model here). Every
 * event of a replayed stream counts as content for `cut_after` and
 * `stream_error`.
 */
const RECORDINGS_FOLDER = 'gemini';

export function recordedBody(fixtures: RecordedFixtures, name: string): Buffer | undefined {
  return fixtures.body(RECORDINGS_FOLDER, name);
}

export function recordedStreamScript(fixtures: RecordedFixtures, name: string): StreamScript | undefined {
  const lines = fixtures.chunkLines(RECORDINGS_FOLDER, name);
  return lines ? { head: [], content: lines.map((line) => `data: ${line}\n\n`), tail: [] } : undefined;
}

export function recordingNotFound(name: string, streamed: boolean, fixturesDir: string | undefined): GeminiError {
  return missingRecording(`${RECORDINGS_FOLDER}/${name}${streamed ? '.chunks.txt' : '.json'}`, fixturesDir);
}
