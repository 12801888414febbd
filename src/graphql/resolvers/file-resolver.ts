import { Arg, Args, Ctx, ID, Mutation, Query, Resolver } from 'type-graphql';
import { timeIdCursor } from '../../db/time-id-cursor';
import type { StoredFile } from '../../files/file-service';
import { connection } from '../connection';
import type { GraphqlContext } from '../context';
import { FileDeletion, FileNode, FilePurposeValue } from '../types/file';
import { FileConnection, FilesArgs } from '../types/file-connection';

/** Files of the calling key (the same FileService as /v1/files): lookup, pages, delete. */
@Resolver()
export class FileResolver {
  @Query(() => FileNode, { nullable: true, description: 'A file; null when missing, expired, deleted or uploaded by another key.' })
  file(@Arg('id', () => ID) id: string, @Ctx() ctx: GraphqlContext): Promise<FileNode | null> {
    return findFile(ctx, id);
  }

  @Query(() => FileConnection, { description: "The calling key's files, newest first." })
  files(@Args(() => FilesArgs) args: FilesArgs, @Ctx() ctx: GraphqlContext): Promise<FileConnection> {
    return connection(args, (request) => ctx.services.files.list(ctx.principal, { ...request, order: 'desc', purpose: args.purpose ?? undefined }, timeIdCursor), fileNode);
  }

  @Mutation(() => FileDeletion, { description: "Deletes a file of the calling key, bytes and all; another key's file is file_not_found." })
  async deleteFile(@Arg('id', () => ID) id: string, @Ctx() ctx: GraphqlContext): Promise<FileDeletion> {
    const file = await ctx.services.files.delete(ctx.principal, id);
    return { id: file.id, deleted: true };
  }
}

/** A file of the calling key; null when missing, expired, deleted or another key's. */
export async function findFile(ctx: GraphqlContext, id: string): Promise<FileNode | null> {
  const file = await ctx.services.files.find(ctx.principal, id);
  return file && fileNode(file);
}

function fileNode(file: StoredFile): FileNode {
  return {
    id: file.id,
    filename: file.filename,
    purpose: file.purpose as FilePurposeValue,
    bytes: file.bytes,
    mimeType: file.mimeType,
    sha256: file.sha256,
    status: 'processed',
    createdAt: Math.floor(file.createdAt.getTime() / 1000),
    expiresAt: Math.floor(file.expiresAt.getTime() / 1000),
  };
}
