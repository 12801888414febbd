import type { S3Client } from '@aws-sdk/client-s3';
import { readEnv } from '../../src/config/env';
import { ConfigError, loadGatewayConfig } from '../../src/config/load-config';
import { openFileStorage } from '../../src/files/storage/open-file-storage';

/**
 * The variables of `env` the gateway would not read, found by asking the
 * gateway's own code rather than a list: its environment schema (readEnv),
 * the built-in catalog (a provider's key or base URL changes it;
 * GATEWAY_CONFIG names a file to read), and, with S3 file storage, the
 * credentials its S3 client ends up with. readEnv throws, naming the
 * variable, on a value it refuses.
 */
export async function variablesTheGatewayIgnores(env: Record<string, string>): Promise<string[]> {
  const parsed = readEnv(env);
  const read = new Set(Object.keys(env).filter((name) => name in parsed));
  const builtIn = JSON.stringify(loadGatewayConfig({}).config);
  for (const name of Object.keys(env)) {
    try {
      if (JSON.stringify(loadGatewayConfig({ [name]: 'https://upstream.example/v1' }).config) !== builtIn) read.add(name);
    } catch (err) {
      if (!(err instanceof ConfigError && err.message.startsWith(`${name}:`))) throw err;
      read.add(name);
    }
  }
  if (parsed.GATEWAY_FILE_STORAGE === 's3' && env.AWS_ACCESS_KEY_ID) {
    const storage = await openFileStorage(parsed, env);
    try {
      const credentials = await (storage as unknown as { client: S3Client }).client.config.credentials();
      if (credentials.accessKeyId === env.AWS_ACCESS_KEY_ID) read.add('AWS_ACCESS_KEY_ID');
      if (credentials.secretAccessKey === env.AWS_SECRET_ACCESS_KEY) read.add('AWS_SECRET_ACCESS_KEY');
    } finally {
      await storage.close();
    }
  }
  return Object.keys(env).filter((name) => !read.has(name));
}
