import 'reflect-metadata';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { lexicographicSortSchema, printSchema, type GraphQLSchema } from 'graphql';
import { packageRoot } from '../config/package-root';
import { buildAdminSchema } from './admin/admin-graphql';
import { buildGatewaySchema } from './schema';

/** The committed SDL at the top of the repository, which codegen and clients read. */
export const SCHEMA_FILE = path.join(packageRoot(), 'schema.graphql');
/** The admin GraphQL's SDL (/api/admin/graphql), committed beside it. */
export const ADMIN_SCHEMA_FILE = path.join(packageRoot(), 'admin-schema.graphql');

const HEADER = '# Generated from src/graphql by `npm run schema:emit`; do not edit.\n\n';

/** Each committed schema file and the SDL the code builds for it. */
export const SCHEMAS: Array<{ file: string; build: () => Promise<GraphQLSchema> }> = [
  { file: SCHEMA_FILE, build: buildGatewaySchema },
  { file: ADMIN_SCHEMA_FILE, build: buildAdminSchema },
];

/** A schema's SDL, types and fields sorted, so that the file changes only when the schema does. */
export async function printSorted(build: () => Promise<GraphQLSchema>): Promise<string> {
  return `${HEADER}${printSchema(lexicographicSortSchema(await build()))}\n`;
}

export async function emitSchemaFile(): Promise<void> {
  for (const { file, build } of SCHEMAS) await writeFile(file, await printSorted(build));
}
