import 'reflect-metadata';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { lexicographicSortSchema, printSchema } from 'graphql';
import { packageRoot } from '../config/package-root';
import { buildGatewaySchema } from './schema';

/** The committed SDL at the top of the repository, which codegen and clients read. */
export const SCHEMA_FILE = path.join(packageRoot(), 'schema.graphql');

const HEADER = '# Generated from src/graphql by `npm run schema:emit`; do not edit.\n\n';

/** The schema's SDL, types and fields sorted, so that the file changes only when the schema does. */
export async function printGatewaySchema(): Promise<string> {
  const schema = await buildGatewaySchema();
  return `${HEADER}${printSchema(lexicographicSortSchema(schema))}\n`;
}

export async function emitSchemaFile(file: string = SCHEMA_FILE): Promise<void> {
  await writeFile(file, await printGatewaySchema());
}
