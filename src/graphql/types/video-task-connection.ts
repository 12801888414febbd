import { ArgsType, Field, Int, ObjectType } from 'type-graphql';
import type { TaskSnapshot } from '../../videos/video-views';
import { PageInfo } from './usage-record-connection';
import { VideoTask, VideoTaskStatus } from './video-task';

export const MAX_TASK_PAGE_SIZE = 100;

@ObjectType()
export class VideoTaskEdge {
  @Field(() => VideoTask)
  node!: TaskSnapshot;

  @Field({ description: 'Pass as `after` to continue after this task.' })
  cursor!: string;
}

@ObjectType({ description: 'A page of video tasks, newest first.' })
export class VideoTaskConnection {
  @Field(() => [VideoTaskEdge])
  edges!: VideoTaskEdge[];

  @Field(() => PageInfo)
  pageInfo!: PageInfo;
}

@ArgsType()
export class VideoTasksArgs {
  @Field(() => Int, { nullable: true, defaultValue: 20, description: `Tasks per page, 1 to ${MAX_TASK_PAGE_SIZE}.` })
  first!: number | null;

  @Field(() => String, { nullable: true, description: 'The endCursor of the previous page.' })
  after?: string | null;

  @Field(() => VideoTaskStatus, { nullable: true, description: 'Only tasks in this status.' })
  status?: VideoTaskStatus | null;

  @Field(() => String, { nullable: true, description: 'Only tasks of this model.' })
  model?: string | null;
}
