import { StatusBadge } from '../../components/StatusBadge';
import type { TaskStatus } from './video-task';

const LOOK: Record<TaskStatus, { text: string; tone: 'neutral' | 'busy' | 'good' | 'bad' }> = {
  QUEUED: { text: 'queued', tone: 'neutral' },
  IN_PROGRESS: { text: 'in progress', tone: 'busy' },
  COMPLETED: { text: 'completed', tone: 'good' },
  FAILED: { text: 'failed', tone: 'bad' },
  EXPIRED: { text: 'expired', tone: 'bad' },
};

/** A task's status as a badge. */
export function TaskStatusBadge({ status }: { status: TaskStatus }) {
  const look = LOOK[status];
  return <StatusBadge text={look.text} tone={look.tone} />;
}
