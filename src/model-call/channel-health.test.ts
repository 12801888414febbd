import { UpstreamError } from '../providers/upstream-error';
import { COOL_DOWN_AFTER_FAILURES, COOL_DOWN_MS, coolingLast, isCooling, noteChannelAnswer, noteChannelFailure, resetChannelHealth } from './channel-health';

const failing = new UpstreamError('overloaded', { status: 503, retryable: true });
const refused = new UpstreamError('bad request', { status: 400, retryable: false });
const candidate = (name: string) => ({ route: { provider: { name } } });

describe('provider channel cool-down', () => {
  beforeEach(resetChannelHealth);

  it('cools a channel after five retryable failures in a row, for ten seconds', () => {
    const channel = {};
    const now = 1_000_000;
    for (let i = 1; i < COOL_DOWN_AFTER_FAILURES; i++) expect(noteChannelFailure(channel, failing, now)).toBe(false);
    expect(isCooling(channel, now)).toBe(false);
    expect(noteChannelFailure(channel, failing, now)).toBe(true);
    expect(isCooling(channel, now + COOL_DOWN_MS - 1)).toBe(true);
    expect(isCooling(channel, now + COOL_DOWN_MS)).toBe(false);
    // A failure while cooling does not start it over.
    expect(noteChannelFailure(channel, failing, now + 1)).toBe(false);
  });

  it('does not count failures that are the request\'s own, and an answer starts the count over', () => {
    const channel = {};
    for (let i = 0; i < 10; i++) noteChannelFailure(channel, refused);
    expect(isCooling(channel)).toBe(false);
    for (let i = 1; i < COOL_DOWN_AFTER_FAILURES; i++) noteChannelFailure(channel, failing);
    noteChannelAnswer(channel);
    for (let i = 1; i < COOL_DOWN_AFTER_FAILURES; i++) noteChannelFailure(channel, failing);
    expect(isCooling(channel)).toBe(false);
  });

  it('puts routes on cooling channels last, keeping the order of the rest', () => {
    const [a, b, c] = [candidate('a'), candidate('b'), candidate('c')];
    const routes = [a, b, c];
    expect(coolingLast(routes)).toBe(routes);
    for (let i = 0; i < COOL_DOWN_AFTER_FAILURES; i++) noteChannelFailure(a.route.provider, failing);
    expect(coolingLast(routes).map((r) => r.route.provider.name)).toEqual(['b', 'c', 'a']);
    noteChannelAnswer(a.route.provider);
    expect(coolingLast(routes)).toBe(routes);
  });
});
