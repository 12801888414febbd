import { Arg, Resolver, Root, Subscription, type SubscribeResolverData } from 'type-graphql';
import { openChatCompletionStream } from '../chat-completion-stream';
import type { GraphqlContext } from '../context';
import { ChatCompletionEvent } from '../types/chat-completion-event';
import { ChatCompletionInput } from '../types/chat-completion-input';

type ChatCompletionSubscribe = SubscribeResolverData<unknown, { input: ChatCompletionInput }, GraphqlContext>;

@Resolver()
export class ChatCompletionResolver {
  @Subscription(() => ChatCompletionEvent, {
    description: 'Streams a chat completion, one event per chunk, as POST /v1/chat/completions with stream true does over SSE.',
    subscribe: ({ args, context }: ChatCompletionSubscribe) => openChatCompletionStream(context, args.input),
  })
  chatCompletion(
    @Root() event: ChatCompletionEvent,
    // Declared for the schema; the stream reads it in `subscribe`.
    @Arg('input', () => ChatCompletionInput) _input: ChatCompletionInput,
  ): ChatCompletionEvent {
    return event;
  }
}
