import 'reflect-metadata';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { lexicographicSortSchema, printSchema, type GraphQLSchema } from 'graphql';
import { packageRoot } from '../config/package-root';
import { buildAdminSchema } from './admin/admin-graphql-runtime';
import { buildGatewaySchema } from './schema';
import { subgraphSdl } from './subgraph-schema';

/** The committed SDL at the top of the repository, which codegen and clients read. */
export const SCHEMA_FILE = path.join(packageRoot(), 'schema.graphql');
/** The admin GraphQL's SDL (/api/admin/graphql), committed beside it. */
export const ADMIN_SCHEMA_FILE = path.join(packageRoot(), 'admin-schema.graphql');
/** The same public schema as a Federation 2 subgraph: the `_service { sdl }` of /graphql, which a supergraph composes. */
export const SUBGRAPH_SCHEMA_FILE = path.join(packageRoot(), 'subgraph.graphql');

const HEADER = '# Generated from src/graphql by `npm run schema:emit`; do not edit.\n\n';

/** Each committed schema file and the text the code prints for it. */
export const SCHEMAS: Array<{ file: string; print: () => Promise<string> }> = [
  { file: SCHEMA_FILE, print: () => printSorted(buildGatewaySchema) },
  { file: ADMIN_SCHEMA_FILE, print: () => printSorted(buildAdminSchema) },
  { file: SUBGRAPH_SCHEMA_FILE, print: async () => schemaFileText(await subgraphSdl()) },
];

/** A schema's SDL, types and fields sorted, so that the file changes only when the schema does. */
export async function printSorted(build: () => Promise<GraphQLSchema>): Promise<string> {
  return schemaFileText(printSchema(lexicographicSortSchema(await build())));
}

/** A committed schema file's text: the header, then the SDL. */
export function schemaFileText(sdl: string): string {
  return `${HEADER}${sdl}\n`;
}

export async function emitSchemaFile(): Promise<void> {
  for (const { file, print } of SCHEMAS) await writeFile(file, await print());
}
