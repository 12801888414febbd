import { UpstreamError } from '../providers/upstream-error';
import { ChannelHealth, COOL_DOWN_AFTER_FAILURES, COOL_DOWN_MS } from './channel-health';

const failing = new UpstreamError('overloaded', { status: 503, retryable: true });
const refused = new UpstreamError('bad request', { status: 400, retryable: false });
const candidate = (name: string) => ({ route: { provider: { name } } });

describe('provider channel cool-down', () => {
  let health: ChannelHealth;
  beforeEach(() => {
    health = new ChannelHealth();
  });

  it('cools a channel after five retryable failures in a row, for ten seconds', () => {
    const channel = {};
    const now = 1_000_000;
    for (let i = 1; i < COOL_DOWN_AFTER_FAILURES; i++) expect(health.noteFailure(channel, failing, now)).toBe(false);
    expect(health.isCooling(channel, now)).toBe(false);
    expect(health.noteFailure(channel, failing, now)).toBe(true);
    expect(health.isCooling(channel, now + COOL_DOWN_MS - 1)).toBe(true);
    expect(health.isCooling(channel, now + COOL_DOWN_MS)).toBe(false);
    // A failure while cooling does not start it over.
    expect(health.noteFailure(channel, failing, now + 1)).toBe(false);
  });

  it('does not count failures that are the request\'s own, and an answer starts the count over', () => {
    const channel = {};
    for (let i = 0; i < 10; i++) health.noteFailure(channel, refused);
    expect(health.isCooling(channel)).toBe(false);
    for (let i = 1; i < COOL_DOWN_AFTER_FAILURES; i++) health.noteFailure(channel, failing);
    health.noteAnswer(channel);
    for (let i = 1; i < COOL_DOWN_AFTER_FAILURES; i++) health.noteFailure(channel, failing);
    expect(health.isCooling(channel)).toBe(false);
  });

  it('puts routes on cooling channels last, keeping the order of the rest', () => {
    const [a, b, c] = [candidate('a'), candidate('b'), candidate('c')];
    const routes = [a, b, c];
    expect(health.coolingLast(routes)).toBe(routes);
    for (let i = 0; i < COOL_DOWN_AFTER_FAILURES; i++) health.noteFailure(a.route.provider, failing);
    expect(health.coolingLast(routes).map((r) => r.route.provider.name)).toEqual(['b', 'c', 'a']);
    health.noteAnswer(a.route.provider);
    expect(health.coolingLast(routes)).toBe(routes);
  });

  it('keeps health per owner: a channel cooling for one gateway is healthy for another', () => {
    const channel = {};
    const other = new ChannelHealth();
    for (let i = 0; i < COOL_DOWN_AFTER_FAILURES; i++) health.noteFailure(channel, failing);
    expect(health.isCooling(channel)).toBe(true);
    expect(other.isCooling(channel)).toBe(false);
  });
});
