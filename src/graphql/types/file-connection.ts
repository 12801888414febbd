import { ArgsType, Field, ObjectType } from 'type-graphql';
import { FileNode, FilePurposeValue } from './file';
import { PageArgs } from './page-args';
import { PageInfo } from './usage-record-connection';

@ObjectType()
export class FileEdge {
  @Field(() => FileNode)
  node!: FileNode;

  @Field({ description: 'Pass as `after` to continue after this file.' })
  cursor!: string;
}

@ObjectType({ description: 'A page of files, newest first.' })
export class FileConnection {
  @Field(() => [FileEdge])
  edges!: FileEdge[];

  @Field(() => PageInfo)
  pageInfo!: PageInfo;
}

@ArgsType()
export class FilesArgs extends PageArgs {
  @Field(() => FilePurposeValue, { nullable: true, description: 'Only files of this purpose.' })
  purpose?: FilePurposeValue | null;
}
