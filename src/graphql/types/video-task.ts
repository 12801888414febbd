import { Directive, Field, ID, Int, ObjectType, registerEnumType } from 'type-graphql';
import { ENTITY_KEY } from './entity-key';

export enum VideoTaskStatus {
  QUEUED = 'queued',
  IN_PROGRESS = 'in_progress',
  COMPLETED = 'completed',
  FAILED = 'failed',
  EXPIRED = 'expired',
}
registerEnumType(VideoTaskStatus, { name: 'VideoTaskStatus', description: 'Where a video task is. Failed and expired tasks are refunded.' });

@ObjectType()
export class VideoTaskError {
  @Field()
  code!: string;

  @Field()
  message!: string;
}

@Directive(ENTITY_KEY)
@ObjectType({ description: 'An asynchronous video generation task of the calling key.' })
export class VideoTask {
  @Field(() => ID, { description: 'The id the REST API uses (request_id, or the video id).' })
  id!: string;

  @Field(() => ID, { description: 'The submission request, whose usage record holds, settles or refunds the charge.' })
  requestId!: string;

  @Field()
  model!: string;

  @Field(() => VideoTaskStatus)
  status!: VideoTaskStatus;

  @Field(() => Int, { description: 'Percent, 0 to 100, as far as the upstream reports it.' })
  progress!: number;

  @Field()
  prompt!: string;

  @Field(() => Int)
  durationSeconds!: number;

  @Field(() => String, { nullable: true })
  resolution!: string | null;

  @Field(() => String, { nullable: true })
  aspectRatio!: string | null;

  @Field(() => String, { nullable: true, description: 'Pixel size, for models that take one.' })
  size!: string | null;

  @Field(() => String, { nullable: true, description: 'Set when completed on models that return a URL; unusable when respectModeration is false.' })
  videoUrl!: string | null;

  @Field(() => Boolean, { nullable: true, description: 'false: the video failed moderation (still a completed task).' })
  respectModeration!: boolean | null;

  @Field(() => VideoTaskError, { nullable: true })
  error!: VideoTaskError | null;

  @Field(() => ID, { nullable: true })
  remixedFrom!: string | null;

  @Field(() => Int, { description: 'Unix seconds.' })
  createdAt!: number;

  @Field(() => Int, { description: 'Unix seconds.' })
  updatedAt!: number;

  @Field(() => Int, { nullable: true, description: 'Unix seconds.' })
  completedAt!: number | null;
}
