import { Field, ID, Int, ObjectType } from 'type-graphql';

@ObjectType({ description: 'A piece of a tool call; the pieces with the same index make one call.' })
export class ToolCallDelta {
  @Field(() => Int)
  index!: number;

  @Field(() => String, { nullable: true, description: 'Set on the first piece of a call.' })
  id!: string | null;

  @Field(() => String, { nullable: true, description: 'Set on the first piece of a call.' })
  name!: string | null;

  @Field(() => String, { nullable: true, description: 'The next characters of the JSON arguments.' })
  argumentsDelta!: string | null;
}

@ObjectType()
export class ChatCompletionUsage {
  @Field(() => Int)
  promptTokens!: number;

  @Field(() => Int)
  completionTokens!: number;

  @Field(() => Int)
  totalTokens!: number;

  @Field(() => Int, { nullable: true, description: 'Part of completionTokens.' })
  reasoningTokens!: number | null;

  @Field(() => Int, { nullable: true, description: 'Part of promptTokens, when the upstream reports its cache.' })
  cachedTokens!: number | null;

  @Field(() => Int, { nullable: true, description: 'Part of promptTokens not served from the cache, when the upstream reports it.' })
  cacheMissTokens!: number | null;
}

@ObjectType({ description: 'One chunk of a streamed chat completion.' })
export class ChatCompletionEvent {
  @Field(() => ID, { description: 'The request id: usageRecord(id) reads its usage record once the stream is done.' })
  requestId!: string;

  @Field(() => String, { nullable: true })
  contentDelta!: string | null;

  @Field(() => String, { nullable: true })
  reasoningDelta!: string | null;

  @Field(() => [ToolCallDelta])
  toolCallDeltas!: ToolCallDelta[];

  @Field(() => String, { nullable: true, description: 'Why the answer ended: stop, length, tool_calls, ...' })
  finishReason!: string | null;

  @Field(() => ChatCompletionUsage, { nullable: true, description: 'Set on the last event.' })
  usage!: ChatCompletionUsage | null;

  @Field({ description: 'True on the last event of a finished stream; its usage record is written by then.' })
  done!: boolean;
}
