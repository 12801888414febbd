import { useState } from 'preact/hooks';
import { ProblemNotice } from '../../components/ProblemNotice';
import { toProblem, type GatewayProblem } from '../../lib/gateway-problem';
import { saveDownload } from '../../lib/save-download';
import type { VideoTask } from './video-task';

/**
 * What a task produced. A model that returns a URL (xAI style) gets a link
 * to it; a model with a content endpoint (OpenAI Videos) gets downloads of
 * the video and its thumbnail through the gateway, with the key. A failed
 * or expired task shows its error.
 */
export function TaskResult({ task, apiKey }: { task: VideoTask; apiKey: string }) {
  const [problem, setProblem] = useState<GatewayProblem>();
  if (task.error) {
    return (
      <span class="muted task-error">
        <code>{task.error.code}</code> {task.error.message}
      </span>
    );
  }
  if (task.status !== 'COMPLETED') return null;
  if (task.videoUrl) {
    return (
      <span>
        <a href={task.videoUrl} target="_blank" rel="noopener noreferrer">
          Open video
        </a>
        {task.respectModeration === false && <span class="muted"> (failed moderation)</span>}
      </span>
    );
  }
  const download = (variant: 'video' | 'thumbnail', name: string) =>
    saveDownload(`/v1/videos/${encodeURIComponent(task.id)}/content?variant=${variant}`, apiKey, name).catch((err: unknown) => setProblem(toProblem(err)));
  return (
    <span class="actions">
      <button type="button" class="link-button" onClick={() => download('video', `${task.id}.mp4`)}>
        Download video
      </button>
      <button type="button" class="link-button" onClick={() => download('thumbnail', `${task.id}.webp`)}>
        Thumbnail
      </button>
      <ProblemNotice problem={problem} onDismiss={() => setProblem(undefined)} />
    </span>
  );
}
