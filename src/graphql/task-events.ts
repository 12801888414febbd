import type { PubSub } from 'type-graphql';
import type { TaskEvents } from '../videos/task-events';
import { taskSnapshot, type TaskSnapshot } from '../videos/video-views';

export const TASK_UPDATED = 'TASK_UPDATED';

/** Task changes published on the subscription pub/sub (Redis across instances, or in-process). */
export function pubSubTaskEvents(pubSub: PubSub): TaskEvents {
  return {
    publish(task) {
      pubSub.publish(TASK_UPDATED, taskSnapshot(task));
    },
  };
}

export type { TaskSnapshot };
