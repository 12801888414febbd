import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ADMIN_TOKEN, startTestGateway, type TestGateway } from '../support/test-gateway';

const MAIN_JS = path.join(__dirname, '..', '..', 'dist', 'main.js');

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * `npm run keys` against a gateway that is running (on the embedded
 * database, which only the gateway may open): the command goes through the
 * gateway's admin API. Each run gets an empty data folder of its own, so a
 * key that works at the gateway can only have been made by the gateway.
 */
describe('keys from the shell, while the gateway runs', () => {
  let t: TestGateway;
  let scratch: string;

  beforeAll(async () => {
    t = await startTestGateway({ database: 'pglite' });
    scratch = mkdtempSync(path.join(os.tmpdir(), 'gateway-keys-cli-'));
  });
  afterAll(async () => {
    await t?.close();
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });

  function keys(args: string[], env: Record<string, string>): Promise<Run> {
    return new Promise((resolve) => {
      execFile(
        process.execPath,
        [MAIN_JS, 'keys', ...args],
        { env: { PATH: process.env.PATH ?? '', GATEWAY_DATA_DIR: scratch, PORT: '0', LOG_LEVEL: 'warn', ...env }, timeout: 60_000 },
        (err, stdout, stderr) => resolve({ code: err ? (typeof err.code === 'number' ? err.code : -1) : 0, stdout, stderr }),
      );
    });
  }

  async function modelsStatus(key: string): Promise<number> {
    const res = await fetch(`${t.url}/v1/models`, { headers: { authorization: `Bearer ${key}` } });
    await res.body?.cancel();
    return res.status;
  }

  it('creates a key with --url that the gateway accepts, lists it without its secret, and revokes it through GATEWAY_URL', async () => {
    const created = await keys(['create', '--name', 'from-the-shell', '--models', 'gpt-4.1-mini', '--url', t.url], { GATEWAY_ADMIN_TOKEN: ADMIN_TOKEN });
    expect(created).toMatchObject({ code: 0 });
    const { id, key, name, models } = JSON.parse(created.stdout) as { id: string; key: string; name: string; models: string[] };
    expect(key).toMatch(/^sk-gw-[A-Za-z0-9]{40}$/);
    expect({ name, models }).toEqual({ name: 'from-the-shell', models: ['gpt-4.1-mini'] });
    expect(await modelsStatus(key)).toBe(200);

    const listed = await keys(['list', '--url', t.url], { GATEWAY_ADMIN_TOKEN: ADMIN_TOKEN });
    expect(listed.code).toBe(0);
    expect((JSON.parse(listed.stdout) as Array<{ id: string }>).map((k) => k.id)).toContain(id);
    expect(listed.stdout).not.toContain(key);

    const revoked = await keys(['revoke', id], { GATEWAY_ADMIN_TOKEN: ADMIN_TOKEN, GATEWAY_URL: t.url });
    expect(revoked.code).toBe(0);
    expect(JSON.parse(revoked.stdout)).toMatchObject({ id, revoked_at: expect.any(String) });
    expect(await modelsStatus(key)).toBe(401);

    const again = await keys(['revoke', 'key_00000000000000000000000000'], { GATEWAY_ADMIN_TOKEN: ADMIN_TOKEN, GATEWAY_URL: t.url });
    expect(again.code).toBe(2);
    expect(again.stderr).toContain('no key');
  }, 120_000);

  it('finds the gateway answering on the configured PORT without being told its URL', async () => {
    const port = new URL(t.url).port;
    const created = await keys(['create', '--name', 'found-on-port'], { GATEWAY_ADMIN_TOKEN: ADMIN_TOKEN, PORT: port });
    expect(created.code).toBe(0);
    expect(await modelsStatus((JSON.parse(created.stdout) as { key: string }).key)).toBe(200);
  }, 60_000);

  it('says what is missing instead of opening the database the running gateway holds', async () => {
    const port = new URL(t.url).port;
    const noToken = await keys(['list', '--url', t.url], {});
    expect(noToken.code).toBe(2);
    expect(noToken.stderr).toContain('GATEWAY_ADMIN_TOKEN');

    const found = await keys(['list'], { PORT: port });
    expect(found.code).toBe(2);
    expect(found.stderr).toContain(`a gateway is running at http://127.0.0.1:${port}`);

    const wrongToken = await keys(['list', '--url', t.url], { GATEWAY_ADMIN_TOKEN: 'not-the-admin-token-0000' });
    expect(wrongToken.code).toBe(1);
    expect(wrongToken.stderr).toMatch(/answered 401/);
  }, 60_000);
});
