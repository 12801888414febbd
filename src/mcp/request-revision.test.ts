import { InvalidMessage, type ClientMessage } from './json-rpc';
import { requestRevision, withoutProtocolMeta } from './request-revision';

const META = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };
const request = (method: string, params?: Record<string, unknown>): ClientMessage => ({ kind: 'request', id: 1, method, params });
const refusal = (run: () => unknown): InvalidMessage => {
  try {
    run();
  } catch (err) {
    if (err instanceof InvalidMessage) return err;
    throw err;
  }
  throw new Error('not refused');
};

describe('the era of an /mcp request', () => {
  it('takes a request without per-request fields as the handshake revisions take it, and initialize always so', () => {
    expect(requestRevision({}, request('tools/list'))).toEqual({ era: 'legacy' });
    expect(requestRevision({ 'mcp-protocol-version': '2025-06-18' }, request('tools/list'))).toEqual({ era: 'legacy' });
    expect(requestRevision({ 'mcp-protocol-version': '2026-07-28' }, request('initialize', { _meta: META }))).toEqual({ era: 'legacy' });
    expect(requestRevision({ 'mcp-protocol-version': '2025-11-25', 'mcp-method': 'tools/list' }, request('tools/list', { _meta: { ...META, 'io.modelcontextprotocol/protocolVersion': '2025-11-25' } }))).toEqual({ era: 'legacy' });
  });

  it('takes a request with them as 2026-07-28, with its client', () => {
    const clientInfo = { name: 'c', version: '1' };
    expect(requestRevision({ 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'prompts/get', 'mcp-name': `=?base64?${Buffer.from('wéather__brief').toString('base64')}?=` }, request('prompts/get', { name: 'wéather__brief', _meta: { ...META, 'io.modelcontextprotocol/clientInfo': clientInfo } })))
      .toEqual({ era: 'modern', revision: '2026-07-28', clientInfo });
  });

  it('refuses what the stateless revision requires and is missing or disagrees, with its codes', () => {
    expect(refusal(() => requestRevision({ 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'prompts/get', 'mcp-name': 'wéather__brief' }, request('prompts/get', { name: 'wéather__brief', _meta: META }))).code).toBe(-32020);
    expect(refusal(() => requestRevision({ 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/list' }, request('tools/list', { _meta: { ...META, 'io.modelcontextprotocol/clientInfo': 'me' } }))).code).toBe(-32602);
    expect(refusal(() => requestRevision({ 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/list' }, request('tools/list', { _meta: { ...META, 'io.modelcontextprotocol/protocolVersion': 20260728 } }))).code).toBe(-32602);
    const unsupported = refusal(() => requestRevision({ 'mcp-protocol-version': '2024-11-05' }, { kind: 'notification', method: 'notifications/initialized' }));
    expect(unsupported).toMatchObject({ code: -32022, id: null, options: { status: 400, data: { requested: '2024-11-05' } } });
  });

  it('keeps the client\'s protocol fields from what is passed on, and every other _meta field', () => {
    expect(withoutProtocolMeta({ name: 'x', _meta: { ...META, progressToken: 7 } })).toEqual({ name: 'x', _meta: { progressToken: 7 } });
    expect(withoutProtocolMeta({ name: 'x', _meta: META })).toEqual({ name: 'x' });
    expect(withoutProtocolMeta(undefined)).toBeUndefined();
  });
});
