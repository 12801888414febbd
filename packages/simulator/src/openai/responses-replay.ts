import type { Directives } from '../directives';
import type { StreamScript } from '../event-stream';
import type { RecordedFixtures } from '../fixtures';
import { type OpenAIError, missingRecording } from './errors';
import { type ResponsesRequest, inputItems } from './responses-request';
import { namedEventFrame } from './responses-stream';

/**
 * Responses recorded from api.openai.com, replayed byte for byte: the body
 * of `openai-responses/<name>.json`, or the lines of `<name>.chunks.txt`,
 * each one event named after its payload's `type` (the recordings keep only
 * the `data:` lines). Asked for with the model `recorded:<name>` or the
 * directive `replay=<name>`.
 *
 * A recorded stream may hold several responses one after another (each
 * starting again at `response.created`, sequence number 0): the turns of an
 * agent loop, where each turn answers the previous one's tool calls. The
 * turn replayed is the one the request has reached, counted by the tool
 * outputs it sends back, so a client driving the loop gets each recorded
 * turn in order; past the last turn, the last one again. In a replayed
 * stream every event after the first counts as content for `cut_after` and
 * `stream_error`.
 *
 * A recorded body that is an error envelope is an error answer, and goes out
 * with status 400, the status of every error recorded there.
 */
const RECORDED_MODEL_PREFIX = 'recorded:';
const RECORDINGS_FOLDER = 'openai-responses';
const TURN_START = 'response.created';
const RECORDED_ERROR_STATUS = 400;

export function recordingToReplay(request: ResponsesRequest, directives: Directives): string | undefined {
  if (directives.replay !== undefined) return directives.replay;
  return request.model.startsWith(RECORDED_MODEL_PREFIX) ? request.model.slice(RECORDED_MODEL_PREFIX.length) : undefined;
}

export function recordedAnswer(fixtures: RecordedFixtures, name: string): { status: number; body: Buffer } | undefined {
  const body = fixtures.body(RECORDINGS_FOLDER, name);
  if (!body) return undefined;
  return { status: isErrorEnvelope(body) ? RECORDED_ERROR_STATUS : 200, body };
}

export function recordedStreamScript(fixtures: RecordedFixtures, name: string, request: ResponsesRequest): StreamScript | undefined {
  const lines = fixtures.chunkLines(RECORDINGS_FOLDER, name);
  if (!lines) return undefined;
  const events = lines.map((line) => ({ type: (JSON.parse(line) as { type: string }).type, line }));
  const turns = splitIntoTurns(events);
  const turn = turns[Math.min(toolOutputsSent(request), turns.length - 1)] ?? [];
  const frames = turn.map(({ type, line }) => namedEventFrame(type, line));
  return { head: frames.slice(0, 1), content: frames.slice(1), tail: [] };
}

export function recordingNotFound(name: string, streamed: boolean, fixturesDir: string | undefined): OpenAIError {
  return missingRecording(`${RECORDINGS_FOLDER}/${name}${streamed ? '.chunks.txt' : '.json'}`, fixturesDir);
}

function splitIntoTurns<T extends { type: string }>(events: T[]): T[][] {
  const turns: T[][] = [];
  for (const event of events) {
    if (event.type === TURN_START || turns.length === 0) turns.push([]);
    turns[turns.length - 1]?.push(event);
  }
  return turns;
}

function toolOutputsSent(request: ResponsesRequest): number {
  return inputItems(request).filter((item) => item.type === 'function_call_output').length;
}

function isErrorEnvelope(body: Buffer): boolean {
  try {
    const parsed = JSON.parse(body.toString('utf8')) as { error?: unknown };
    return typeof parsed.error === 'object' && parsed.error !== null;
  } catch {
    return false;
  }
}
