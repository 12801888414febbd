import { Arg, Args, Ctx, ID, Query, Resolver, Root, Subscription, type SubscribeResolverData } from 'type-graphql';
import { taskSnapshot, type TaskSnapshot } from '../../videos/video-views';
import { connection } from '../connection';
import type { GraphqlContext } from '../context';
import { allTaskUpdates, oneTaskUpdates } from '../task-updates';
import { VideoTask } from '../types/video-task';
import { VideoTaskConnection, VideoTasksArgs } from '../types/video-task-connection';

type TaskSubscribe = SubscribeResolverData<unknown, { id: string }, GraphqlContext>;

/** Video tasks of the calling key: lookup, pages, and live state changes. */
@Resolver()
export class TaskResolver {
  @Query(() => VideoTask, { nullable: true, description: 'A video task; null when missing or submitted by another key.' })
  task(@Arg('id', () => ID) id: string, @Ctx() ctx: GraphqlContext): Promise<TaskSnapshot | null> {
    return findTask(ctx, id);
  }

  @Query(() => VideoTaskConnection, { description: "The calling key's video tasks, newest first." })
  tasks(@Args(() => VideoTasksArgs) args: VideoTasksArgs, @Ctx() ctx: GraphqlContext): Promise<VideoTaskConnection> {
    const filter = { status: args.status ? [args.status] : undefined, model: args.model ?? undefined };
    return connection(args, (request) => ctx.services.videos.page(ctx.principal, request, filter), taskSnapshot);
  }

  @Subscription(() => VideoTask, {
    description: "A task's current state, then each change as it happens (from any gateway instance); ends after the final state.",
    subscribe: async ({ args, context }: TaskSubscribe) => {
      // Refused at once for a task that is missing or another key's, as GET /v1/videos/{id} is.
      await context.services.videos.findOwned(context.principal, args.id);
      return oneTaskUpdates(context, () => findTask(context, args.id), args.id);
    },
  })
  taskUpdated(@Root() task: TaskSnapshot, @Arg('id', () => ID) _id: string): TaskSnapshot {
    return task;
  }

  @Subscription(() => VideoTask, {
    description: "Each state change of any of the calling key's tasks, from now on.",
    subscribe: ({ context }: SubscribeResolverData<unknown, object, GraphqlContext>) => allTaskUpdates(context),
  })
  tasksUpdated(@Root() task: TaskSnapshot): TaskSnapshot {
    return task;
  }
}

/** A video task of the calling key as it is now (a due task is polled first); null when missing or another key's. */
export async function findTask(ctx: GraphqlContext, id: string): Promise<TaskSnapshot | null> {
  const task = await ctx.services.videos.find(ctx.principal, id);
  return task && taskSnapshot(task);
}
