import OpenAI, { toFile } from 'openai';
import { simulatorRequests, startTestGateway, TEST_DATABASES, type TestGateway, usageRecordOf } from '../support/test-gateway';

/** A one-pixel PNG and a small PDF: enough for every upstream's own checks. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');
const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');

const weatherTool: OpenAI.Responses.FunctionTool = {
  type: 'function', name: 'get_weather', description: 'The weather in a city', strict: false,
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
};

type Item = OpenAI.Responses.ResponseInputItem;

/** A Responses stream read to its end: the event types in order, the output text the deltas carried, and the SDK's final response. */
async function readEvents(stream: ReturnType<OpenAI['responses']['stream']>) {
  const types: string[] = [];
  let text = '';
  for await (const event of stream) {
    types.push(event.type);
    if (event.type === 'response.output_text.delta') text += event.delta;
  }
  return { types, text, final: await stream.finalResponse() };
}

/**
 * The Responses API with the official SDK: native routes (the upstream
 * speaks Responses), the stateless bridge onto Claude and Gemini, tool round
 * trips that keep reasoning, streamed events in the SDK's order, and files
 * dereferenced by id so that no upstream sees the gateway's file ids.
 */
describe.each(TEST_DATABASES)('the Responses API (%s)', (database) => {
  let t: TestGateway;
  let key: string;
  let client: OpenAI;

  beforeAll(async () => {
    t = await startTestGateway({ database });
    key = await t.createKey({ name: 'responses' });
    client = new OpenAI({ apiKey: key, baseURL: t.baseURL, maxRetries: 0 });
  });
  afterAll(() => t?.close());

  const lastUpstream = async () => (await simulatorRequests(t)).requests.at(-1)!;
  const record = (requestId: string) =>
    usageRecordOf(t, key, requestId);

  it('a native route: the upstream answers, ids and model are the gateway\'s, usage is billed', async () => {
    const { data, response } = await client.responses.create({ model: 'gpt-4.1-mini', input: 'Name three colours.' }).withResponse();
    const requestId = response.headers.get('x-svc-request-id')!;
    expect(data.id).toBe(`resp_${requestId.slice(4)}`);
    expect(data.model).toBe('gpt-4.1-mini');
    expect(data.output_text.length).toBeGreaterThan(0);
    expect(response.headers.get('x-svc-warning')).toBeNull();
    expect((await lastUpstream()).path).toBe('/v1/responses');
    const usage = await record(requestId);
    expect(usage).toMatchObject({ endpoint: '/v1/responses', model: 'gpt-4.1-mini', usage: { prompt_tokens: data.usage!.input_tokens, completion_tokens: data.usage!.output_tokens } });
    expect(usage.billing.amount_microusd).toBeGreaterThan(0);
  });

  it('a native stream passes the upstream events through in order', async () => {
    const stream = client.responses.stream({ model: 'gpt-4.1-mini', input: 'Tell me a story.' });
    const { types, text, final } = await readEvents(stream);
    expect(types[0]).toBe('response.created');
    expect(types.at(-1)).toBe('response.completed');
    expect(final.output_text).toBe(text);
    expect(final.model).toBe('gpt-4.1-mini');
  });

  it('a tool round trip on a native route keeps every output item, reasoning included', async () => {
    const input: Item[] = [{ role: 'user', content: 'What is the weather in Paris? Use the tool.' }];
    const first = await client.responses.create({ model: 'o4-mini', input, tools: [weatherTool], include: ['reasoning.encrypted_content'] });
    expect(first.output.map((item) => item.type)).toEqual(['reasoning', 'function_call']);
    const call = first.output[1] as OpenAI.Responses.ResponseFunctionToolCall;
    const next = await client.responses.create({
      model: 'o4-mini', tools: [weatherTool],
      input: [...input, ...(first.output as Item[]), { type: 'function_call_output', call_id: call.call_id, output: '{"temperature_c": 21}' }],
    });
    expect(next.output_text).toContain('temperature_c');
    const sent = (await lastUpstream()).body;
    expect(sent.input.map((item: any) => item.type ?? 'message')).toEqual(['message', 'reasoning', 'function_call', 'function_call_output']);
    expect(sent.input[1].encrypted_content).toBe((first.output[0] as OpenAI.Responses.ResponseReasoningItem).encrypted_content);
  });

  it('the bridge onto Claude: output items, the stateless_bridge warning unless store is false', async () => {
    const { data, response } = await client.responses.create({ model: 'claude-sonnet-4-5', input: 'Name three colours.', max_output_tokens: 300 }).withResponse();
    expect(response.headers.get('x-svc-warning')).toBe('stateless_bridge');
    expect((await lastUpstream()).path).toBe('/v1/messages');
    expect(data.output.map((item) => item.type)).toEqual(['message']);
    expect(data.output_text.length).toBeGreaterThan(0);
    expect(data.usage!.input_tokens).toBeGreaterThan(0);
    const quiet = await client.responses.create({ model: 'claude-sonnet-4-5', input: 'Hi', store: false, max_output_tokens: 300 }).withResponse();
    expect(quiet.response.headers.get('x-svc-warning')).toBeNull();
    const usage = await record(response.headers.get('x-svc-request-id')!);
    expect(usage).toMatchObject({ endpoint: '/v1/responses', model: 'claude-sonnet-4-5' });
  });

  it.each([
    ['store: true', { store: true }, 'store'],
    ['previous_response_id', { previous_response_id: 'resp_123' }, 'previous_response_id'],
    ['background', { background: true }, 'background'],
    ['a built-in tool', { tools: [{ type: 'web_search_preview' }] }, 'tools[0].type'],
    ['a field the bridge cannot carry', { prompt: { id: 'pmpt_1' } }, 'prompt'],
  ])('the bridge refuses %s before any upstream call', async (_name, extra, param) => {
    await fetch(`${t.simulatorUrl}/_sim/requests`, { method: 'DELETE' });
    const err: any = await client.responses.create({ model: 'claude-sonnet-4-5', input: 'Hi', ...(extra as object) } as never).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.APIError);
    expect({ status: err.status, code: err.code, param: err.param }).toEqual({ status: 400, code: 'protocol_bridge_unsupported', param });
    expect((await simulatorRequests(t)).requests).toHaveLength(0);
  });

  it.each([
    ['claude-sonnet-4-5', '/v1/messages'],
    ['gemini-2.5-flash', '/v1beta/models/gemini-2.5-flash:generateContent'],
  ])('a tool round trip with reasoning through the bridge onto %s keeps the signed reasoning', async (model, path) => {
    const input: Item[] = [{ role: 'user', content: 'What is the weather in Paris? Use the tool.' }];
    const first = await client.responses.create({ model, input, tools: [weatherTool], reasoning: { effort: model.startsWith('claude') ? 'low' : undefined }, max_output_tokens: 4096 } as never);
    const reasoning = first.output.find((item) => item.type === 'reasoning') as OpenAI.Responses.ResponseReasoningItem;
    const call = first.output.find((item) => item.type === 'function_call') as OpenAI.Responses.ResponseFunctionToolCall;
    expect(reasoning.encrypted_content).toEqual(expect.stringMatching(/^gwrs1\./));
    expect(call).toMatchObject({ name: 'get_weather', call_id: expect.any(String) });
    expect(JSON.parse(call.arguments)).toEqual({ city: expect.any(String) });

    const next = await client.responses.create({
      model, tools: [weatherTool], max_output_tokens: 4096, ...(model.startsWith('claude') ? { reasoning: { effort: 'low' } } : {}),
      input: [...input, ...(first.output as Item[]), { type: 'function_call_output', call_id: call.call_id, output: '{"temperature_c": 21}' }],
    } as never);
    expect(next.output_text).toContain('temperature_c');
    const sent = await lastUpstream();
    expect(sent.path).toBe(path);
    if (model.startsWith('claude')) {
      const assistantTurn = sent.body.messages[1];
      expect(assistantTurn.content[0]).toMatchObject({ type: 'thinking', signature: expect.any(String) });
      expect(assistantTurn.content.at(-1)).toMatchObject({ type: 'tool_use', id: call.call_id });
    } else {
      const modelTurn = sent.body.contents[1];
      expect(modelTurn.parts.find((p: any) => p.functionCall).thoughtSignature).toEqual(expect.any(String));
    }
  });

  it('a bridged stream: the events the SDK expects, in order, and a final response that matches them', async () => {
    const stream = client.responses.stream({ model: 'claude-sonnet-4-5', input: 'Think, then name three colours.', reasoning: { effort: 'low' }, max_output_tokens: 4096 } as never);
    const { types, text, final } = await readEvents(stream);
    expect(types.slice(0, 3)).toEqual(['response.created', 'response.in_progress', 'response.output_item.added']);
    expect(types.at(-1)).toBe('response.completed');
    expect(types.indexOf('response.reasoning_summary_text.delta')).toBeLessThan(types.indexOf('response.output_text.delta'));
    expect(final.output.map((item) => item.type)).toEqual(['reasoning', 'message']);
    expect(final.output_text).toBe(text);
    expect(final.usage!.output_tokens).toBeGreaterThan(0);
  });

  describe('files by id', () => {
    let pdfId: string;
    let pngId: string;
    beforeAll(async () => {
      pdfId = (await client.files.create({ file: await toFile(PDF, 'report.pdf'), purpose: 'user_data' })).id;
      pngId = (await client.files.create({ file: await toFile(PNG, 'pixel.png'), purpose: 'vision' })).id;
    });

    const withFiles = (model: string) =>
      client.responses
        .create({
          model, max_output_tokens: 300,
          input: [{ role: 'user', content: [{ type: 'input_text', text: 'Summarise the report and the picture.' }, { type: 'input_file', file_id: pdfId }, { type: 'input_image', file_id: pngId, detail: 'auto' }] }],
        })
        .withResponse();

    it('a native route gets the files inline, never their ids, and says it dereferenced', async () => {
      const { response } = await withFiles('gpt-4.1-mini');
      expect(response.headers.get('x-svc-file-dereference')).toBe('1');
      const sent = JSON.stringify((await lastUpstream()).body);
      expect(sent).not.toContain(pdfId);
      expect(sent).not.toContain(pngId);
      expect(sent).toContain(`data:application/pdf;base64,${PDF.toString('base64')}`);
      expect(sent).toContain(`data:image/png;base64,${PNG.toString('base64')}`);
    });

    it('the bridge onto Claude sends the PDF as a document and the image as an image', async () => {
      const { response } = await withFiles('claude-sonnet-4-5');
      expect(response.headers.get('x-svc-file-dereference')).toBe('1');
      const content = (await lastUpstream()).body.messages[0].content;
      expect(content.map((block: any) => block.type)).toEqual(['text', 'document', 'image']);
      expect(content[1]).toMatchObject({ source: { type: 'base64', media_type: 'application/pdf', data: PDF.toString('base64') }, title: 'report.pdf' });
    });

    it("another key's file is 404 file_not_found before any upstream call", async () => {
      const other = new OpenAI({ apiKey: await t.createKey({ name: 'other' }), baseURL: t.baseURL, maxRetries: 0 });
      await fetch(`${t.simulatorUrl}/_sim/requests`, { method: 'DELETE' });
      const err: any = await other.responses
        .create({ model: 'gpt-4.1-mini', input: [{ role: 'user', content: [{ type: 'input_file', file_id: pdfId }] }] })
        .catch((e: unknown) => e as any);
      expect({ status: err.status, code: err.code }).toEqual({ status: 404, code: 'file_not_found' });
      expect((await simulatorRequests(t)).requests).toHaveLength(0);
    });

    it('chat completions refuse a file by id and point to Responses', async () => {
      const err: any = await client.chat.completions
        .create({ model: 'gpt-4.1-mini', messages: [{ role: 'user', content: [{ type: 'file', file: { file_id: pdfId } }] }] })
        .catch((e: unknown) => e as any);
      expect(err.status).toBe(400);
      expect(err.message).toContain('/v1/responses');
    });
  });
});
