import { MAX_IMAGES_PER_REQUEST } from '../../src/providers/chat-request';
import { simulatorRequests, startTestGateway, TEST_DATABASES, type TestGateway } from '../support/test-gateway';

describe.each(TEST_DATABASES)('images per chat request (%s)', (database) => {
  let t: TestGateway;
  let key: string;

  beforeAll(async () => {
    t = await startTestGateway({ database });
    key = await t.createKey({ name: 'images' });
  });
  afterAll(() => t?.close());

  const chat = async (body: unknown) => {
    const res = await fetch(`${t.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as any };
  };
  const pixel = 'data:image/png;base64,iVBORw0KGgo=';
  /** `count` images over two user messages. */
  const withImages = (count: number, url: (n: number) => string) => {
    const part = (n: number) => ({ type: 'image_url', image_url: { url: url(n) } });
    const half = Math.floor(count / 2);
    return [
      { role: 'user', content: [{ type: 'text', text: 'first' }, ...Array.from({ length: half }, (_, n) => part(n))] },
      { role: 'assistant', content: 'ok' },
      { role: 'user', content: [{ type: 'text', text: 'second' }, ...Array.from({ length: count - half }, (_, n) => part(half + n))] },
    ];
  };

  it(`takes ${MAX_IMAGES_PER_REQUEST} images`, async () => {
    const answer = await chat({ model: 'gpt-4.1-mini', messages: withImages(MAX_IMAGES_PER_REQUEST, () => pixel) });
    expect(answer.status).toBe(200);
  });

  it.each(['gpt-4.1-mini', 'gemini-2.5-flash'])('refuses one more (%s) as invalid_parameter naming the image, before any upstream call', async (model) => {
    const before = (await simulatorRequests(t)).requests.length;
    // 300 URLs, the request of the finding: refused at validation, nothing fetched.
    for (const count of [MAX_IMAGES_PER_REQUEST + 1, 300]) {
      const answer = await chat({ model, messages: withImages(count, (n) => `https://images.example.com/${n}.png`) });
      expect(answer.status).toBe(400);
      // The first image over the limit, counted after each message's text part.
      const half = Math.floor(count / 2);
      const param = half > MAX_IMAGES_PER_REQUEST ? `messages[0].content[${MAX_IMAGES_PER_REQUEST + 1}].image_url` : `messages[2].content[${MAX_IMAGES_PER_REQUEST - half + 1}].image_url`;
      expect(answer.body.error).toMatchObject({
        code: 'invalid_parameter',
        param,
        message: `"${param}" is image number ${MAX_IMAGES_PER_REQUEST + 1}; a request may carry at most ${MAX_IMAGES_PER_REQUEST} images. Send fewer images.`,
      });
    }
    expect((await simulatorRequests(t)).requests.length).toBe(before);
  });
});
