import { useEffect, useRef, useState } from 'preact/hooks';
import { toProblem, type GatewayProblem } from '../../lib/gateway-problem';
import { graphqlRequest, GRAPHQL_PATH } from '../../lib/graphql-request';
import { subscriptionClient, subscriptionProblem, type LinkState } from '../../lib/subscription-client';
import { byNewest, isFinal, isLaterState, VIDEO_TASK_FIELDS, type VideoTask } from './video-task';

const TASKS_QUERY = `query ConsoleTasks { tasks(first: 50) { edges { node { ${VIDEO_TASK_FIELDS} } } } }`;
const TASKS_SUBSCRIPTION = `subscription ConsoleTasksUpdated { tasksUpdated { ${VIDEO_TASK_FIELDS} } }`;
const TASK_QUERY = `query ConsoleTask($id: ID!) { task(id: $id) { ${VIDEO_TASK_FIELDS} } }`;

export interface LiveTasks {
  /** The key's latest 50 tasks and any task that changed since, newest first. */
  tasks: VideoTask[];
  link: LinkState;
  problem: GatewayProblem | undefined;
  /** Reads one task (just submitted) into the list at once, before its first update arrives. */
  track(id: string): void;
}

/**
 * The key's video tasks, live: the `tasksUpdated` subscription is opened
 * first, then the latest tasks are queried, so no change falls between the
 * two; each task keeps its latest state (see isLaterState). `onFinished` is
 * called once per task that reaches a final state while the page watches.
 */
export function useLiveTasks(key: string, onFinished: (task: VideoTask) => void): LiveTasks {
  const tasks = useRef(new Map<string, VideoTask>());
  const notified = useRef(new Set<string>());
  const finished = useRef(onFinished);
  finished.current = onFinished;
  const [list, setList] = useState<VideoTask[]>([]);
  const [link, setLink] = useState<LinkState>('connecting');
  const [problem, setProblem] = useState<GatewayProblem>();

  const upsert = (task: VideoTask, live: boolean) => {
    const known = tasks.current.get(task.id);
    if (!known || isLaterState(task, known)) tasks.current.set(task.id, task);
    if (live && isFinal(task.status) && !notified.current.has(task.id)) {
      notified.current.add(task.id);
      finished.current(task);
    }
    setList([...tasks.current.values()].sort(byNewest));
  };

  useEffect(() => {
    tasks.current.clear();
    notified.current.clear();
    setList([]);
    setProblem(undefined);
    const client = subscriptionClient(key, setLink);
    const unsubscribe = client.subscribe<{ tasksUpdated: VideoTask }>(
      { query: TASKS_SUBSCRIPTION },
      {
        next: (result) => {
          if (result.errors?.length) setProblem(subscriptionProblem(result.errors));
          else if (result.data) upsert(result.data.tasksUpdated, true);
        },
        error: (err) => setProblem(subscriptionProblem(err)),
        complete: () => undefined,
      },
    );
    graphqlRequest<{ tasks: { edges: Array<{ node: VideoTask }> } }>({ path: GRAPHQL_PATH, secret: key }, TASKS_QUERY).then(
      (data) => data.tasks.edges.forEach((edge) => upsert(edge.node, false)),
      (err: unknown) => setProblem(toProblem(err)),
    );
    return () => {
      unsubscribe();
      void client.dispose();
    };
  }, [key]);

  const track = (id: string) => {
    graphqlRequest<{ task: VideoTask | null }>({ path: GRAPHQL_PATH, secret: key }, TASK_QUERY, { id }).then(
      (data) => data.task && upsert(data.task, false),
      (err: unknown) => setProblem(toProblem(err)),
    );
  };

  return { tasks: list, link, problem, track };
}
