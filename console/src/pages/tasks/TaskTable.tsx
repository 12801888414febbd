import { DataTable } from '../../components/DataTable';
import { formatTime } from '../../lib/format';
import { TaskResult } from './TaskResult';
import { TaskStatusBadge } from './TaskStatusBadge';
import type { VideoTask } from './video-task';

/** The key's tasks, one row each: prompt and id, model, status, progress, when, and the result. */
export function TaskTable({ tasks, apiKey }: { tasks: VideoTask[]; apiKey: string }) {
  if (tasks.length === 0) return <p class="muted">No video tasks yet. Submit one above; it appears here and updates live.</p>;
  return (
    <DataTable caption="Video tasks" captionHidden columns={['Task', 'Model', 'Status', 'Progress', 'Submitted', 'Result']}>
      {tasks.map((task) => (
        <tr key={task.id} data-task-id={task.id}>
          <td>
            <div class="prompt" title={task.prompt}>
              {task.prompt}
            </div>
            <code class="muted small">{task.id}</code>
          </td>
          <td>{task.model}</td>
          <td>
            <TaskStatusBadge status={task.status} />
          </td>
          <td>
            <progress max={100} value={task.progress} aria-label={`Progress of ${task.id}`} /> <span class="small">{task.progress} %</span>
          </td>
          <td class="nowrap">{formatTime(task.createdAt)}</td>
          <td>
            <TaskResult task={task} apiKey={apiKey} />
          </td>
        </tr>
      ))}
    </DataTable>
  );
}
