import { collectGarbage } from '../../test/support/collect-garbage';
import { Deadline } from './deadline';

/** Resolves with what `signal` aborted with, or rejects after `ms`: a test waits for the event and fails on time-out. */
function abortOf(signal: AbortSignal, ms: number): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const late = setTimeout(() => reject(new Error(`not aborted within ${ms} ms`)), ms);
    signal.addEventListener('abort', () => {
      clearTimeout(late);
      resolve(signal.reason);
    });
  });
}

describe('Deadline', () => {
  it('fires on time even when nothing but its timer holds it and a garbage collection runs', async () => {
    const client = new AbortController();
    const held = new Deadline(100, [client.signal]).signal;
    collectGarbage();
    const reason = await abortOf(held, 2_000);
    expect(reason).toMatchObject({ name: 'TimeoutError' });
    expect(client.signal.aborted).toBe(false);
  });

  it('aborts at once with its parent, and is then not expired', async () => {
    const client = new AbortController();
    const deadline = new Deadline(60_000, [client.signal, undefined]);
    client.abort(new Error('client left'));
    expect(deadline.signal.aborted).toBe(true);
    expect(deadline.signal.reason).toEqual(new Error('client left'));
    expect(deadline.expired).toBe(false);
    deadline.clear();
  });

  it('is expired when its own time runs out first', async () => {
    const deadline = new Deadline(20, [new AbortController().signal]);
    await abortOf(deadline.signal, 2_000);
    expect(deadline.expired).toBe(true);
  });

  it('starts aborted under a parent that already is', () => {
    const parent = AbortSignal.abort(new Error('gone'));
    expect(new Deadline(60_000, [parent]).signal.aborted).toBe(true);
  });

  it('run clears the timer and lets go of the parents when the work ends', async () => {
    const parent = new AbortController();
    let seen: Deadline | undefined;
    expect(await Deadline.run(60_000, [parent.signal], async (d) => { seen = d; return 'done'; })).toBe('done');
    parent.abort();
    expect(seen!.signal.aborted).toBe(false);
    await expect(Deadline.run(60_000, [], async () => { throw new Error('failed'); })).rejects.toThrow('failed');
  });
});
