import { Arg, Args, Ctx, ID, Mutation, Query, Resolver } from 'type-graphql';
import { decodeCursor, encodeCursor, InvalidCursorError } from '../../db/time-id-cursor';
import type { StoredFile } from '../../files/file-service';
import type { GraphqlContext } from '../context';
import { badUserInput } from '../errors';
import { FileDeletion, FileNode, FilePurposeValue } from '../types/file';
import { FileConnection, FilesArgs } from '../types/file-connection';
import { pageSize } from '../types/page-args';

/** Files of the calling key (the same FileService as /v1/files): lookup, pages, delete. */
@Resolver()
export class FileResolver {
  @Query(() => FileNode, { nullable: true, description: 'A file; null when missing, expired, deleted or uploaded by another key.' })
  file(@Arg('id', () => ID) id: string, @Ctx() ctx: GraphqlContext): Promise<FileNode | null> {
    return findFile(ctx, id);
  }

  @Query(() => FileConnection, { description: "The calling key's files, newest first." })
  async files(@Args(() => FilesArgs) args: FilesArgs, @Ctx() ctx: GraphqlContext): Promise<FileConnection> {
    const first = pageSize(args.first);
    let after = null;
    try {
      after = args.after ? decodeCursor(args.after) : null;
    } catch (err) {
      if (err instanceof InvalidCursorError) throw badUserInput('after', 'is not a cursor this API returned.');
      throw err;
    }
    const page = await ctx.services.files.list(ctx.principal, { limit: first, after, order: 'desc', purpose: args.purpose ?? undefined });
    const edges = page.files.map((file) => ({ node: fileNode(file), cursor: encodeCursor(file) }));
    return { edges, pageInfo: { endCursor: edges[edges.length - 1]?.cursor ?? null, hasNextPage: page.hasMore } };
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
