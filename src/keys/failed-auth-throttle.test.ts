import { FAILED_AUTH_WINDOW_MS, FailedAuthThrottle } from './failed-auth-throttle';

describe('failed key checks per client address', () => {
  it('refuses an address after its failures of the minute, until the minute ends, and no other address', () => {
    const throttle = new FailedAuthThrottle(3);
    for (let i = 0; i < 3; i++) {
      expect(throttle.refusal('10.0.0.1', 1_000)).toBeUndefined();
      throttle.failed('10.0.0.1', 1_000);
    }
    const refusal = throttle.refusal('10.0.0.1', 31_000);
    expect(refusal).toMatchObject({ code: 'too_many_failed_authentications', status: 429, options: { retryAfterSeconds: 30 } });
    expect(throttle.refusal('10.0.0.2', 31_000)).toBeUndefined();
    expect(throttle.refusal('10.0.0.1', 1_000 + FAILED_AUTH_WINDOW_MS)).toBeUndefined();
  });

  it('counts nothing when set to 0', () => {
    const throttle = new FailedAuthThrottle(0);
    for (let i = 0; i < 100; i++) throttle.failed('10.0.0.1', 0);
    expect(throttle.refusal('10.0.0.1', 0)).toBeUndefined();
  });
});
