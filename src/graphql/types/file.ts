import { Directive, Field, ID, Int, ObjectType, registerEnumType } from 'type-graphql';
import { ENTITY_KEY } from './entity-key';

export enum FilePurposeValue {
  USER_DATA = 'user_data',
  VISION = 'vision',
}
registerEnumType(FilePurposeValue, { name: 'FilePurpose', description: 'What a file was uploaded for: documents (user_data) or images (vision).' });

/** A file as GraphQL shows it (the REST file object, camel-cased, plus the detected type and digest). */
@Directive(ENTITY_KEY)
@ObjectType('File', { description: 'A file the calling key uploaded (POST /v1/files).' })
export class FileNode {
  @Field(() => ID, { description: 'The id of the REST API (file-...).' })
  id!: string;

  @Field()
  filename!: string;

  @Field(() => FilePurposeValue)
  purpose!: FilePurposeValue;

  @Field(() => Int, { description: 'Size in bytes.' })
  bytes!: number;

  @Field({ description: 'Detected from the bytes (or a document extension), sent as Content-Type with the content.' })
  mimeType!: string;

  @Field({ description: 'SHA-256 of the bytes, hex.' })
  sha256!: string;

  @Field({ description: 'Always processed: a file is listed once all of it is stored.' })
  status!: string;

  @Field(() => Int, { description: 'Unix seconds.' })
  createdAt!: number;

  @Field(() => Int, { description: 'Unix seconds; the file is removed then.' })
  expiresAt!: number;
}

@ObjectType({ description: 'The answer to deleteFile.' })
export class FileDeletion {
  @Field(() => ID)
  id!: string;

  @Field()
  deleted!: boolean;
}
