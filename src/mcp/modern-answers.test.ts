import { resultMessage, errorMessage } from './json-rpc';
import { modernAnswer, modernResult, modernStatus, SERVER_INFO_META } from './modern-answers';

describe('answers shaped for MCP 2026-07-28', () => {
  it('marks every result complete and names the gateway, keeping the _meta it had', () => {
    const result = modernResult('tools/call', { content: [], _meta: { 'model-gateway/x': 1 } }, false);
    expect(result).toEqual({ content: [], resultType: 'complete', _meta: { 'model-gateway/x': 1, [SERVER_INFO_META]: expect.objectContaining({ name: 'model-gateway', version: expect.any(String) }) } });
    expect(result).not.toHaveProperty('ttlMs');
  });

  it('gives the cacheable methods their hints: lists private, discovery public, a list that left a server out stale at once', () => {
    expect(modernResult('server/discover', {}, false)).toMatchObject({ cacheScope: 'public', ttlMs: expect.any(Number) });
    for (const method of ['tools/list', 'prompts/list', 'resources/list', 'resources/read']) {
      const hinted = modernResult(method, {}, false);
      expect(hinted.cacheScope).toBe('private');
      expect(hinted.ttlMs).toBeGreaterThanOrEqual(0);
    }
    expect(modernResult('tools/list', {}, false).ttlMs).toBeGreaterThan(0);
    expect(modernResult('tools/list', {}, true).ttlMs).toBe(0);
  });

  it('maps the codes 2026-07-28 forbids: an upstream\'s -32002 becomes -32602, a code of the reserved range the gateway did not raise becomes -32000', () => {
    expect(modernAnswer('resources/read', errorMessage(1, -32002, 'Resource not found'))).toMatchObject({ error: { code: -32602, message: 'Resource not found' } });
    expect(modernAnswer('tools/call', errorMessage(1, -32042, 'URL elicitation required', { x: 1 }))).toMatchObject({ error: { code: -32000, data: { x: 1 } } });
    expect(modernAnswer('tools/call', errorMessage(1, -32602, 'bad'))).toMatchObject({ error: { code: -32602 } });
    expect(modernAnswer('tools/call', errorMessage(1, -32000, 'refused'))).toMatchObject({ error: { code: -32000 } });
    expect(modernAnswer('tools/call', resultMessage(1, { content: [] }))).toMatchObject({ result: { resultType: 'complete' } });
  });

  it('answers a method not served with 404, anything else with 200', () => {
    expect(modernStatus(errorMessage(1, -32601, 'no'))).toBe(404);
    expect(modernStatus(errorMessage(1, -32602, 'bad'))).toBe(200);
    expect(modernStatus(resultMessage(1, {}))).toBe(200);
  });
});
