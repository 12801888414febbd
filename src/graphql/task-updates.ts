import type { GraphqlContext } from './context';
import type { TaskSnapshot } from '../videos/video-views';

const FINISHED = new Set(['completed', 'failed', 'expired']);

/**
 * One task's state changes as they happen: its current state first, then
 * every newer one, ending after the final state. The key's event stream is
 * joined before the current state is read, so no change can fall in between,
 * and versions drop anything older than what was already sent. Both streams
 * end when the operation does (`ctx.signal`), even while awaiting an event.
 */
export async function* oneTaskUpdates(ctx: GraphqlContext, current: () => Promise<TaskSnapshot | null>, taskId: string): AsyncGenerator<TaskSnapshot> {
  const events = ctx.taskUpdates.subscribe(ctx.principal.keyId, ctx.signal);
  try {
    const first = await current();
    if (!first) return;
    yield first;
    if (FINISHED.has(first.status)) return;
    let version = first.version;
    for (;;) {
      const { value, done } = await events.next();
      if (done) return;
      if (value.id !== taskId || value.version <= version) continue;
      version = value.version;
      yield value;
      if (FINISHED.has(value.status)) return;
    }
  } finally {
    await events.return();
  }
}

/** Every state change of the calling key's tasks, from now on. */
export async function* allTaskUpdates(ctx: GraphqlContext): AsyncGenerator<TaskSnapshot> {
  const events = ctx.taskUpdates.subscribe(ctx.principal.keyId, ctx.signal);
  try {
    for (;;) {
      const { value, done } = await events.next();
      if (done) return;
      yield value;
    }
  } finally {
    await events.return();
  }
}
