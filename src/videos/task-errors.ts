import type { TaskErrorCode } from '../errors/error-codes';
import type { VideoTaskError } from './video-task';

/**
 * What a failed or expired task tells its owner: the gateway's own words,
 * never the upstream's. An upstream's free text may carry anything (a masked
 * credential, an internal host name, another tenant's prompt), so it goes to
 * the structured logs only (with the task id); the task keeps the upstream's
 * failure code only when it is a plain identifier.
 */
const MESSAGES: Record<TaskErrorCode, string> = {
  video_generation_failed: 'The upstream could not generate the video; the charge was refunded.',
  upstream_error: 'The upstream refused the task when it was polled; the charge was refunded. Submit it again.',
  submission_failed: 'The upstream refused the submission; nothing was charged.',
  submission_interrupted: 'The gateway stopped while submitting this task; it was not charged. Submit it again.',
  generation_timeout: 'The upstream did not finish the video in time; the charge was refunded. Submit it again.',
  expired: 'The upstream expired the task before it finished; the charge was refunded.',
};

const MODERATION_MESSAGE = 'The upstream declined to generate this video under its content policy; the charge was refunded.';

/** snake_case, as OpenAI-style codes are: nothing that can hold a key, a host name or a sentence. */
const PLAIN_IDENTIFIER = /^[a-z][a-z0-9_]{0,63}$/;

/** Codes that say the content was refused (moderation, safety, policy), answered with the moderation message. */
const MODERATION_CODE = /moderat|content_policy|content_filter|safety|policy_violation/;

/** One of the gateway's task errors (`TASK_ERROR_CODES`), with its fixed message. */
export function taskError(code: TaskErrorCode): VideoTaskError {
  return { code, message: MESSAGES[code] };
}

/**
 * A failure the upstream reported for a task: its code if it is a plain
 * identifier (else `video_generation_failed`), and a message of the
 * gateway's, the content-policy one for moderation-style codes. The
 * upstream's `message` is never read here: it is for the logs.
 */
export function upstreamFailure(reported: { code?: string | null; message?: string | null }): VideoTaskError {
  const code = reported.code && PLAIN_IDENTIFIER.test(reported.code) ? reported.code : 'video_generation_failed';
  return { code, message: MODERATION_CODE.test(code) ? MODERATION_MESSAGE : MESSAGES.video_generation_failed };
}
