import type { Directives } from '../directives';
import type { StreamScript } from '../event-stream';
import type { RecordedFixtures } from '../fixtures';
import type { ChatRequest } from './chat-request';
import { DONE_FRAME } from './chat-stream';
import { type OpenAIError, missingRecording } from './errors';

/**
 * Responses recorded from api.openai.com, replayed byte for byte: the body
 * of `<name>.json`, or each line of `<name>.chunks.txt` as one `data:` event
 * followed by `[DONE]` (which the recordings leave out). Asked for with the
 * model `recorded:<name>` or the directive `replay=<name>`. In a replayed
 * stream every event after the first counts as content for `cut_after` and
 * `stream_error`.
 */
const RECORDED_MODEL_PREFIX = 'recorded:';
const RECORDINGS_FOLDER = 'openai-chat';

export function recordingToReplay(request: ChatRequest, directives: Directives): string | undefined {
  if (directives.replay !== undefined) return directives.replay;
  return request.model.startsWith(RECORDED_MODEL_PREFIX) ? request.model.slice(RECORDED_MODEL_PREFIX.length) : undefined;
}

export function recordedBody(fixtures: RecordedFixtures, name: string): Buffer | undefined {
  return fixtures.body(RECORDINGS_FOLDER, name);
}

export function recordedStreamScript(fixtures: RecordedFixtures, name: string): StreamScript | undefined {
  const lines = fixtures.chunkLines(RECORDINGS_FOLDER, name);
  if (!lines) return undefined;
  const frames = lines.map((line) => `data: ${line}\n\n`);
  return { head: frames.slice(0, 1), content: frames.slice(1), tail: [DONE_FRAME] };
}

export function recordingNotFound(name: string, streamed: boolean, fixturesDir: string | undefined): OpenAIError {
  return missingRecording(`${RECORDINGS_FOLDER}/${name}${streamed ? '.chunks.txt' : '.json'}`, fixturesDir);
}
