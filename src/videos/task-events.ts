import type { VideoTask } from './video-task';

/**
 * Where task state changes go as they happen: GraphQL subscriptions listen
 * here (through Redis when several instances run, in-process otherwise).
 */
export interface TaskEvents {
  publish(task: VideoTask): void;
}
