import path from 'node:path';
import type { GatewayEnv } from '../../config/env';
import { ConfigError } from '../../config/load-config';
import type { FileStorage } from './file-storage';
import { LocalFileStorage } from './local-file-storage';

/**
 * The file storage GATEWAY_FILE_STORAGE names: `local` (a folder under
 * GATEWAY_DATA_DIR) or `s3` (GATEWAY_S3_BUCKET, with the endpoint, region
 * and path style of GATEWAY_S3_*). S3 credentials are the standard
 * AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY (and AWS_SESSION_TOKEN) of the
 * gateway's environment; without them the AWS SDK's own chain (profile,
 * instance role, ...) applies. The AWS SDK is loaded only for `s3`: it is
 * some 30 MB of memory a gateway on local storage never uses.
 */
export async function openFileStorage(env: GatewayEnv, rawEnv: NodeJS.ProcessEnv): Promise<FileStorage> {
  if (env.GATEWAY_FILE_STORAGE === 'local') return LocalFileStorage.open(path.join(env.dataDir, 'files'));
  if (!env.GATEWAY_S3_BUCKET) throw new ConfigError('GATEWAY_FILE_STORAGE=s3 needs GATEWAY_S3_BUCKET (the bucket to keep uploaded files in)');
  const { AWS_ACCESS_KEY_ID: accessKeyId, AWS_SECRET_ACCESS_KEY: secretAccessKey, AWS_SESSION_TOKEN: sessionToken } = rawEnv;
  const { S3Client } = require('@aws-sdk/client-s3') as typeof import('@aws-sdk/client-s3');
  const { S3FileStorage } = require('./s3-file-storage') as typeof import('./s3-file-storage');
  const client = new S3Client({
    region: env.GATEWAY_S3_REGION,
    endpoint: env.GATEWAY_S3_ENDPOINT,
    forcePathStyle: env.GATEWAY_S3_FORCE_PATH_STYLE,
    ...(accessKeyId && secretAccessKey ? { credentials: { accessKeyId, secretAccessKey, ...(sessionToken ? { sessionToken } : {}) } } : {}),
  });
  return new S3FileStorage(client, { bucket: env.GATEWAY_S3_BUCKET, keyPrefix: env.GATEWAY_S3_KEY_PREFIX });
}
