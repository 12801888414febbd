import { anthropicStream } from './anthropic-stream-phase';
import { dialects } from './dialects-phase';
import { fileUpload } from './file-upload-phase';
import { mcpToolCall } from './mcp-tool-call-phase';
import { portkey } from './portkey-phase';
import { recordWrites } from './record-writes-phase';
import { regressionGuard } from './regression-guard-phase';
import { CHAT_PHASES, memory, type Phase } from './phases';
import { spendControl } from './spend-control-phase';
import { tracing } from './tracing-phase';
import { videoTasks } from './video-poll-phase';

/**
 * Every phase, in order. `memory` always runs and reads the first gateway's
 * peak RSS, so it comes after the phases that load that gateway and before
 * file_upload (whose RSS growth it would otherwise count) and video_tasks,
 * which replaces it with two fresh instances.
 */
export const PHASES: Phase[] = [...CHAT_PHASES, portkey, recordWrites, spendControl, anthropicStream, dialects, mcpToolCall, tracing, regressionGuard, memory, fileUpload, videoTasks];
