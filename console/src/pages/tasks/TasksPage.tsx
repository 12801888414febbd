import { LinkIndicator } from '../../components/LinkIndicator';
import { ProblemNotice } from '../../components/ProblemNotice';
import { useToast } from '../../components/Toasts';
import { notify } from '../../lib/notifications';
import { NotificationToggle } from './NotificationToggle';
import { SubmitVideoForm } from './SubmitVideoForm';
import { TaskTable } from './TaskTable';
import { useLiveTasks } from './use-live-tasks';
import type { VideoTask } from './video-task';

const FINISHED: Record<string, string> = { COMPLETED: 'completed', FAILED: 'failed', EXPIRED: 'expired' };

/**
 * Tasks: the key's video tasks, updated live over the `tasksUpdated`
 * subscription. A task that finishes while the page is open is announced
 * with a toast and, when permitted, a silent system notification.
 */
export function TasksPage({ apiKey }: { apiKey: string }) {
  const toast = useToast();
  const onFinished = (task: VideoTask) => {
    const word = FINISHED[task.status] ?? task.status.toLowerCase();
    const text = `Video task ${task.id} ${word} (${task.model}).`;
    toast(text, task.status === 'COMPLETED' ? 'success' : 'error');
    notify(`Video task ${word}`, `${task.model}: ${task.prompt.slice(0, 120)}`, task.id);
  };
  const live = useLiveTasks(apiKey, onFinished);
  return (
    <section aria-labelledby="tasks-title">
      <header class="page-header">
        <h1 id="tasks-title">Tasks</h1>
        <LinkIndicator state={live.link} />
      </header>
      <NotificationToggle />
      <SubmitVideoForm
        apiKey={apiKey}
        onSubmitted={(id) => {
          toast(`Video task ${id} submitted.`);
          live.track(id);
        }}
      />
      <ProblemNotice problem={live.problem} />
      <TaskTable tasks={live.tasks} apiKey={apiKey} />
    </section>
  );
}
