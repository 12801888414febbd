import { ArgsType, Field, ObjectType } from 'type-graphql';
import type { TaskSnapshot } from '../../videos/video-views';
import { PageArgs } from './page-args';
import { PageInfo } from './usage-record-connection';
import { VideoTask, VideoTaskStatus } from './video-task';

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
export class VideoTasksArgs extends PageArgs {
  @Field(() => VideoTaskStatus, { nullable: true, description: 'Only tasks in this status.' })
  status?: VideoTaskStatus | null;

  @Field(() => String, { nullable: true, description: 'Only tasks of this model.' })
  model?: string | null;
}
