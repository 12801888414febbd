import { connect } from 'node:net';
import { startTestGateway, type TestGateway } from '../support/test-gateway';

/** Sends raw bytes and reads until the gateway closes the connection. */
function rawExchange(t: TestGateway, bytes: string): Promise<{ status: number; headers: Record<string, string>; body: any }> {
  const { port } = new URL(t.url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1', () => socket.write(bytes));
    let text = '';
    socket.setEncoding('latin1');
    socket.on('data', (d) => (text += d));
    socket.on('error', reject);
    socket.on('close', () => {
      const [head, ...rest] = text.split('\r\n\r\n');
      const [statusLine, ...lines] = head.split('\r\n');
      const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
      let body: unknown = rest.join('\r\n\r\n');
      try {
        body = JSON.parse(body as string);
      } catch {
        // not JSON: the test says so
      }
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body });
    });
  });
}

describe('requests Node itself refuses', () => {
  let t: TestGateway;
  beforeAll(async () => {
    t = await startTestGateway();
  });
  afterAll(() => t?.close());

  it.each([
    ['headers too large', `GET /v1/models HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`, 431, 'request_header_fields_too_large'],
    ['a request line that is not HTTP', 'GARBAGE\r\n\r\n', 400, 'invalid_request'],
    ['a header without a colon', 'GET /v1/models HTTP/1.1\r\nHost x\r\n\r\n', 400, 'invalid_request'],
    ['a bad chunked body', 'POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n', 400, 'invalid_request'],
  ])('%s: the envelope with the request id of the X-Svc-Request-Id header', async (_name, bytes, status, code) => {
    const answer = await rawExchange(t, bytes);
    expect(answer.status).toBe(status);
    expect(answer.headers['content-type']).toMatch(/^application\/json/);
    expect(answer.body).toMatchObject({ error: { code, type: 'invalid_request_error', request_id: expect.stringMatching(/^req_/) } });
    expect(answer.headers['x-svc-request-id']).toBe(answer.body.error.request_id);
  });
});
