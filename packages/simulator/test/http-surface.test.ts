import type { SimulatorHandle } from '../src/server';
import { startSimulator } from '../src/server';
import { AUTH, errorBody, openaiClient, postJson, readRecorded, useSimulator } from './simulator-test-kit';

const simulator = useSimulator();
const chatBody = { model: 'gpt-4o', messages: [{ role: 'user', content: 'Hi' }] };

describe('authentication', () => {
  it.each([
    ['no authorization header', {}],
    ['an empty bearer key', { authorization: 'Bearer ' }],
    ['another scheme', { authorization: 'Basic dXNlcjpwYXNz' }],
  ])('answers 401 invalid_api_key to %s', async (_case, headers) => {
    const response = await fetch(`${simulator.current.url}/v1/chat/completions`, { method: 'POST', headers, body: JSON.stringify(chatBody) });

    expect(response.status).toBe(401);
    expect(await errorBody(response)).toEqual({ error: { message: expect.stringContaining('API key'), type: 'invalid_request_error', param: null, code: 'invalid_api_key' } });
  });
});

describe('request validation', () => {
  it('refuses a missing model and missing messages with OpenAI messages', async () => {
    const noModel = await postJson(simulator.current, '/v1/chat/completions', { messages: chatBody.messages });
    const noMessages = await postJson(simulator.current, '/v1/chat/completions', { model: 'gpt-4o' });

    expect(noModel.status).toBe(400);
    expect((await errorBody(noModel)).error).toEqual({ message: 'you must provide a model parameter', type: 'invalid_request_error', param: null, code: null });
    expect(noMessages.status).toBe(400);
    expect((await errorBody(noMessages)).error).toMatchObject({ type: 'invalid_request_error', param: 'messages', code: 'missing_required_parameter' });
  });

  it('refuses a body that is not JSON', async () => {
    const response = await fetch(`${simulator.current.url}/v1/chat/completions`, { method: 'POST', headers: AUTH, body: '{"model":' });

    expect(response.status).toBe(400);
    expect((await errorBody(response)).error.message).toContain('could not parse the JSON body');
  });

  it('refuses max_tokens on a reasoning model with exactly the recorded 400 body', async () => {
    const response = await postJson(simulator.current, '/v1/chat/completions', { ...chatBody, model: 'o3', max_tokens: 100 });

    expect(response.status).toBe(400);
    expect(Buffer.from(await response.arrayBuffer()).equals(readRecorded('openai-chat/reasoning-model-legacy-parameter-error.json'))).toBe(true);
  });

  it('answers an unknown URL as api.openai.com does', async () => {
    const response = await fetch(`${simulator.current.url}/v1/completely/unknown`, { headers: AUTH });

    expect(response.status).toBe(404);
    expect((await errorBody(response)).error.message).toBe('Invalid URL (GET /v1/completely/unknown)');
  });
});

describe('body size cap', () => {
  let small: SimulatorHandle;
  beforeAll(async () => {
    small = await startSimulator({ maxBodyBytes: 200 });
  });
  afterAll(() => small.close());

  it('answers 413 past the cap and still serves the next request on the same server', async () => {
    const tooLarge = await postJson(small, '/v1/chat/completions', { ...chatBody, messages: [{ role: 'user', content: 'x'.repeat(1000) }] });
    expect(tooLarge.status).toBe(413);
    expect((await postJson(small, '/v1/chat/completions', chatBody)).status).toBe(200);
  });
});

describe('models', () => {
  it('lists the known models in the OpenAI shape', async () => {
    const models = [];
    for await (const model of openaiClient(simulator.current).models.list()) models.push(model);

    expect(models.map((model) => model.id)).toEqual(expect.arrayContaining(['gpt-4o', 'o3', 'text-embedding-3-small']));
    expect(models[0]).toEqual({ id: expect.any(String), object: 'model', created: expect.any(Number), owned_by: 'system' });
  });

  it('retrieves any model but unknown-model', async () => {
    const client = openaiClient(simulator.current);

    await expect(client.models.retrieve('my-fine-tune')).resolves.toMatchObject({ id: 'my-fine-tune', object: 'model' });
    await expect(client.models.retrieve('unknown-model')).rejects.toMatchObject({ status: 404, code: 'model_not_found' });
  });
});

describe('closing', () => {
  it('closes even with a request hanging, and frees its port', async () => {
    const own = await startSimulator();
    const hanging = postJson(own, '/v1/chat/completions', { ...chatBody, messages: [{ role: 'user', content: 'Hi [sim hang]' }] });
    const failsOnClose = expect(hanging).rejects.toThrow();
    await new Promise((resolve) => setTimeout(resolve, 50));

    await own.close();

    await failsOnClose;
    await expect(fetch(`${own.url}/v1/models`, { headers: AUTH })).rejects.toThrow();
  });
});
