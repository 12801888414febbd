import OpenAI, { toFile } from 'openai';
import { jest } from '@jest/globals';
import { pdfBytes } from '../support/file-uploads';
import { ADMIN_TOKEN, simulatorRequests, startTestGateway, type TestGateway } from '../support/test-gateway';

/**
 * An account under spend control whose wallet cannot cover a Responses call
 * that names a file is refused by the hold before the file is read: a
 * refused call costs the gateway no storage read, no memory for the file and
 * no upstream call.
 */
describe('the spend hold of a Responses call comes before its files are read', () => {
  let t: TestGateway;
  beforeAll(async () => {
    t = await startTestGateway();
  });
  afterAll(() => t?.close());

  const admin = async (path: string, body: unknown) => {
    const res = await fetch(`${t.url}${path}`, { method: 'POST', headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    return (await res.json()) as any;
  };

  it.each(['gpt-4.1-mini', 'claude-sonnet-4-5'])('refuses %s with insufficient_balance without opening the file', async (model) => {
    const account = await admin('/api/admin/accounts', { name: `files-${model}` });
    const made = await admin('/api/admin/keys', { name: 'files', account_id: account.id });
    await admin(`/api/admin/accounts/${account.id}/wallet/top-ups`, { amount_microusd: 1, note: 'almost nothing' });
    const client = new OpenAI({ apiKey: made.key, baseURL: t.baseURL, maxRetries: 0 });
    const file = await client.files.create({ file: await toFile(pdfBytes(64 * 1024), 'report.pdf', { type: 'application/pdf' }), purpose: 'user_data' });
    const opened = jest.spyOn(t.gateway.services.files, 'openContent');
    const upstreamBefore = (await simulatorRequests(t)).requests.length;
    try {
      const refused = await client.responses
        .create({ model, input: [{ role: 'user', content: [{ type: 'input_text', text: 'Summarise.' }, { type: 'input_file', file_id: file.id }] }] })
        .then(() => undefined, (err: unknown) => err);
      expect(refused).toBeInstanceOf(OpenAI.APIError);
      expect((refused as InstanceType<typeof OpenAI.APIError>).code).toBe('insufficient_balance');
      expect(opened).not.toHaveBeenCalled();
      expect((await simulatorRequests(t)).requests.length).toBe(upstreamBefore);
    } finally {
      opened.mockRestore();
    }
  });
});
