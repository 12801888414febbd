import { execFile } from 'node:child_process';
import path from 'node:path';
import { readEnv } from '../../src/config/env';
import { loadGatewayConfig } from '../../src/config/load-config';
import { compose, composeStrings, composeText, dockerfileEnv, dockerfileInstructions, envExample, resolvedEnvironment, sampleSecrets, variablesRead } from '../support/compose-file';
import { variablesTheGatewayIgnores } from '../support/gateway-variables';
import { startTestGateway, TEST_DATABASES, type TestGateway } from '../support/test-gateway';

/**
 * docker-compose.yml, checked without a Docker engine: its structure, its
 * variables against .env.example and against what the gateway reads, its
 * wiring, and its health checks run for real against a gateway.
 */
const services = compose.services;
const gateway = services.gateway;
const oneShot = (name: string) => services[name].restart === 'no';
const others = Object.keys(services).filter((name) => name !== 'gateway');
const gatewayEnv = resolvedEnvironment('gateway');

const seconds = (duration: string | undefined) => {
  const m = /^(\d+)(ms|s|m)$/.exec(duration ?? '');
  if (!m) throw new Error(`not a duration: ${duration}`);
  return Number(m[1]) * { ms: 0.001, s: 1, m: 60 }[m[2] as 'ms' | 's' | 'm'];
};

describe('docker-compose.yml', () => {
  it('has PostgreSQL, Redis, MinIO and its bucket service beside the gateway', () => {
    expect(Object.keys(services).sort()).toEqual(['gateway', 'minio', 'minio-bucket', 'postgres', 'redis']);
  });

  it('gives every long-running service a health check; the one-shot bucket service is awaited to complete instead', () => {
    for (const [name, service] of Object.entries(services)) {
      if (oneShot(name)) continue;
      expect({ name, test: service.healthcheck?.test?.[0], disabled: service.healthcheck?.disable ?? false }).toEqual({
        name, test: expect.stringMatching(/^CMD(-SHELL)?$/), disabled: false,
      });
      expect(service.restart).toBe('unless-stopped');
    }
    expect(others.filter(oneShot)).toEqual(['minio-bucket']);
  });

  it('starts the gateway once every other service is healthy (or done)', () => {
    const expected = Object.fromEntries(others.map((name) => [name, { condition: oneShot(name) ? 'service_completed_successfully' : 'service_healthy' }]));
    expect(gateway.depends_on).toEqual(expected);
    expect(services['minio-bucket'].depends_on).toEqual({ minio: { condition: 'service_healthy' } });
  });

  it('pins its images: PostgreSQL 17, Redis 7, a dated MinIO release', () => {
    expect(services.postgres.image).toBe('postgres:17');
    expect(services.redis.image).toBe('redis:7');
    expect(services.minio.image).toMatch(/^minio\/minio:RELEASE\.\d{4}-\d\d-\d\dT\d\d-\d\d-\d\dZ$/);
    expect(services['minio-bucket'].image).toBe(services.minio.image);
    expect(gateway.build).toMatchObject({ context: '.' });
  });

  it('reads from .env exactly the variables .env.example lists, always as ${NAME}', () => {
    expect(variablesRead()).toEqual(Object.keys(envExample).sort());
    // A bare $NAME would be interpolated too, and is easy to miss.
    expect(composeStrings().filter((text) => /\$(?!\{)/.test(text.replace(/\$\$/g, '')))).toEqual([]);
    // The secrets are required (compose refuses to start without them), and .env.example leaves them empty.
    for (const secret of Object.keys(sampleSecrets)) {
      expect(composeText).toContain(`\${${secret}:?`);
      expect(envExample[secret]).toBe('');
    }
  });

  it('sets only variables the gateway reads: its environment schema, the built-in catalog\'s provider variables, the S3 credentials', async () => {
    expect(await variablesTheGatewayIgnores(gatewayEnv)).toEqual([]);
    // Every provider and search backend of the built-in catalog can get its key.
    const { providers, search } = loadGatewayConfig({}).config;
    const keyVariables = [...Object.values(providers).map((p) => p.api_key_env), ...search.backends.map((b) => b.api_key_env)].filter(Boolean);
    expect(keyVariables.length).toBeGreaterThanOrEqual(8);
    expect(Object.keys(gatewayEnv)).toEqual(expect.arrayContaining(keyVariables));
  });

  it('wires the gateway to PostgreSQL, Redis and the bucket the bucket service creates', () => {
    const pg = resolvedEnvironment('postgres');
    const db = new URL(gatewayEnv.DATABASE_URL);
    expect({ host: db.host, user: db.username, password: db.password, database: db.pathname.slice(1) }).toEqual({
      host: 'postgres:5432', user: pg.POSTGRES_USER, password: sampleSecrets.POSTGRES_PASSWORD, database: pg.POSTGRES_DB,
    });
    expect(services.postgres.healthcheck!.test).toEqual(['CMD', 'pg_isready', '-h', '127.0.0.1', '-U', pg.POSTGRES_USER, '-d', pg.POSTGRES_DB]);
    expect(new URL(gatewayEnv.REDIS_URL).host).toBe('redis:6379');

    const minio = resolvedEnvironment('minio');
    expect(gatewayEnv).toMatchObject({
      GATEWAY_FILE_STORAGE: 's3', GATEWAY_S3_ENDPOINT: 'http://minio:9000', GATEWAY_S3_FORCE_PATH_STYLE: 'true',
      AWS_ACCESS_KEY_ID: minio.MINIO_ROOT_USER, AWS_SECRET_ACCESS_KEY: minio.MINIO_ROOT_PASSWORD,
    });
    const bucketService = services['minio-bucket'];
    expect(bucketService.entrypoint).toEqual(['/bin/sh', '-c']);
    const script = [bucketService.command].flat().join(' ');
    expect(script).toContain(`mc mb --ignore-existing store/${gatewayEnv.GATEWAY_S3_BUCKET}`);
    expect(script).toContain('mc alias set store http://minio:9000 ');
    // What the script leaves to the container's shell ($$), the container has.
    const shellVariables = [...script.matchAll(/\$\$\{(\w+)\}/g)].map((m) => m[1]);
    expect(shellVariables.length).toBeGreaterThan(0);
    expect(Object.keys(resolvedEnvironment('minio-bucket'))).toEqual(expect.arrayContaining(shellVariables));
  });

  it('publishes the gateway\'s port, and its operations port on the host\'s loopback only; nothing else', () => {
    for (const name of others) expect({ name, ports: services[name].ports }).toEqual({ name, ports: undefined });
    const image = dockerfileEnv();
    expect(dockerfileInstructions('EXPOSE')).toEqual([image.PORT]);
    expect(gateway.ports).toEqual([
      `\${PUBLISHED_PORT:-${envExample.PUBLISHED_PORT}}:${image.PORT}`,
      `127.0.0.1:\${PUBLISHED_OPS_PORT:-${envExample.PUBLISHED_OPS_PORT}}:${gatewayEnv.GATEWAY_OPS_PORT}`,
    ]);
    // Inside the container the ops listener must take more than loopback, or the published port reaches nothing.
    expect(gatewayEnv.GATEWAY_OPS_HOST).toBe('0.0.0.0');
    expect(gatewayEnv.PORT).toBeUndefined();
  });

  it('runs the image\'s command, keeps the data folder on a named volume, and waits long enough for a clean shutdown', () => {
    expect(gateway.command).toBeUndefined();
    expect(gateway.entrypoint).toBeUndefined();
    const image = dockerfileEnv();
    expect(gatewayEnv.GATEWAY_DATA_DIR).toBeUndefined();
    expect(dockerfileInstructions('VOLUME')).toEqual([JSON.stringify([image.GATEWAY_DATA_DIR])]);
    expect(gateway.volumes).toEqual([`gateway-data:${image.GATEWAY_DATA_DIR}`]);
    const named = (volumes: string[] | undefined) => (volumes ?? []).map((v) => v.split(':')[0]);
    expect(Object.keys(compose.volumes ?? {}).sort()).toEqual([...named(gateway.volumes), ...named(services.postgres.volumes), ...named(services.minio.volumes)].sort());
    // The gateway's own hard deadline (main.ts): the grace period, the flush, and 20 s; docker's SIGKILL must not come first.
    const env = readEnv(gatewayEnv);
    expect(seconds(gateway.stop_grace_period)).toBeGreaterThan((env.GATEWAY_SHUTDOWN_GRACE_MS + env.GATEWAY_SHUTDOWN_FLUSH_MS + 20_000) / 1000);
    expect(dockerfileInstructions('ARG')).toContain('WITH_SIMULATOR=0');
    expect(Object.keys(gateway.build!.args!)).toEqual(['WITH_SIMULATOR']);
  });

  it('checks the gateway with the image\'s own probe, on /readyz of the operations port, at the image\'s pace', () => {
    const [healthcheck] = dockerfileInstructions('HEALTHCHECK');
    const [, options, probe] = /^(.*?)\s*CMD (.*)$/.exec(healthcheck)!;
    expect(options).toBe(`--interval=${gateway.healthcheck!.interval} --timeout=${gateway.healthcheck!.timeout} --start-period=${gateway.healthcheck!.start_period}`);
    const imageScript = /^node -e "(.*)"$/.exec(probe)![1];
    const [cmd, node, flag, script] = gateway.healthcheck!.test;
    expect([cmd, node, flag]).toEqual(['CMD', 'node', '-e']);
    // The same probe, moved from /healthz on PORT to /readyz on GATEWAY_OPS_PORT.
    expect(script).toBe(imageScript.replace("(process.env.PORT||8080)+'/healthz'", "process.env.GATEWAY_OPS_PORT+'/readyz'"));
    expect(script).not.toBe(imageScript);
  });

  describe.each(TEST_DATABASES)('its health checks, run against a gateway on %s', (database) => {
    let t: TestGateway;
    beforeAll(async () => {
      t = await startTestGateway({ database, env: { GATEWAY_OPS_PORT: '0' } });
    });
    afterAll(() => t?.close());

    const run = (argv: string[], env: Record<string, string>) =>
      new Promise<number>((resolve) => {
        execFile(argv[0], argv.slice(1), { env: { PATH: `${path.dirname(process.execPath)}:${process.env.PATH}`, ...env }, timeout: 30_000 }, (err) => {
          resolve(err ? (typeof err.code === 'number' ? err.code : -1) : 0);
        });
      });
    const ports = () => ({ PORT: new URL(t.url).port, GATEWAY_OPS_PORT: new URL(t.gateway.opsUrl!).port });

    it('the compose file\'s readiness check and the image\'s liveness check pass', async () => {
      const [, ...composeProbe] = gateway.healthcheck!.test;
      const [imageProbe] = dockerfileInstructions('HEALTHCHECK').map((line) => line.replace(/^.*?CMD /, ''));
      expect(await run(composeProbe, ports())).toBe(0);
      expect(await run(['/bin/sh', '-c', imageProbe], ports())).toBe(0);
    });

    it('the readiness check fails where no gateway answers', async () => {
      const [, ...composeProbe] = gateway.healthcheck!.test;
      // The public port answers 404 for /readyz once the operations port has it.
      expect(await run(composeProbe, { GATEWAY_OPS_PORT: ports().PORT })).toBe(1);
    });
  });
});
