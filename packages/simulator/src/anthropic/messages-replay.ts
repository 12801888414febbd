import type { StreamScript } from '../event-stream';
import type { RecordedFixtures } from '../fixtures';
import { type AnthropicError, missingRecording } from './errors';
import { rawNamedEventFrame } from './messages-stream';

/**
 * Responses recorded from api.anthropic.com, replayed byte for byte: the
 * body of `anthropic/<name>.json`, or each line of `<name>.chunks.txt` as
 * one event named after its payload's `type` (the recordings keep only the
 * `data:` lines). Asked for with the directive `replay=<name>`. The
 * recordings end with their own `message_stop`; every event after the
 * first counts as content for `cut_after` and `stream_error`.
 */
const RECORDINGS_FOLDER = 'anthropic';

export function recordedBody(fixtures: RecordedFixtures, name: string): Buffer | undefined {
  return fixtures.body(RECORDINGS_FOLDER, name);
}

export function recordedStreamScript(fixtures: RecordedFixtures, name: string): StreamScript | undefined {
  const lines = fixtures.chunkLines(RECORDINGS_FOLDER, name);
  if (!lines) return undefined;
  const frames = lines.map((line) => rawNamedEventFrame((JSON.parse(line) as { type: string }).type, line));
  return { head: frames.slice(0, 1), content: frames.slice(1), tail: [] };
}

export function recordingNotFound(name: string, streamed: boolean, fixturesDir: string | undefined): AnthropicError {
  return missingRecording(`${RECORDINGS_FOLDER}/${name}${streamed ? '.chunks.txt' : '.json'}`, fixturesDir);
}
