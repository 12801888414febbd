import { findDuplicateKey } from './duplicate-json-keys';

const PATHS = ['questions', 'questions.*.criteria'];

describe('findDuplicateKey', () => {
  it('finds a question id written twice, which JSON.parse would merge', () => {
    const text = '{"model":"m","questions":{"a":{"type":"noul","instructions":"x"},"a":{"type":"noul","instructions":"y"}}}';
    expect(Object.keys((JSON.parse(text) as { questions: object }).questions)).toEqual(['a']);
    expect(findDuplicateKey(text, PATHS)).toEqual({ path: 'questions', key: 'a' });
  });

  it('finds an option id written twice in a question\'s criteria', () => {
    const text = '{"questions":{"q":{"type":"choice","instructions":"x","criteria":{"yes":"1","no":"2","yes":"3"}}}}';
    expect(findDuplicateKey(text, PATHS)).toEqual({ path: 'questions.q.criteria', key: 'yes' });
  });

  it('compares keys as decoded, escapes and all', () => {
    expect(findDuplicateKey('{"questions":{"a":1,"\\u0061":2}}', PATHS)).toEqual({ path: 'questions', key: 'a' });
    expect(findDuplicateKey('{"questions":{"a\\"":1,"a":2}}', PATHS)).toBeUndefined();
  });

  it('leaves objects outside the paths alone, and strings that look like keys', () => {
    expect(findDuplicateKey('{"state":{"a":1,"a":2},"questions":{"a":{"criteria":["x","x"]},"b":"{\\"a\\":1,\\"a\\":2}"}}', PATHS)).toBeUndefined();
    expect(findDuplicateKey('{"questions":{"a":{"instructions":"x","instructions":"y"}}}', PATHS)).toBeUndefined();
    expect(findDuplicateKey('[{"questions":{"a":1,"a":2}}]', PATHS)).toBeUndefined();
  });

  it('follows array indexes and nesting', () => {
    expect(findDuplicateKey('{"list":[{"k":1},{"k":1,"k":2}]}', ['list.*'])).toEqual({ path: 'list.1', key: 'k' });
    expect(findDuplicateKey('{"list":[{"k":1},{"k":1,"j":2}]}', ['list.*'])).toBeUndefined();
  });

  it('reads a large body in one pass', () => {
    const big = `{"images":["data:image/png;base64,${'A'.repeat(8 * 1024 * 1024)}"],"questions":{"a":1,"b":2,"a":3}}`;
    const started = performance.now();
    expect(findDuplicateKey(big, PATHS)).toEqual({ path: 'questions', key: 'a' });
    expect(performance.now() - started).toBeLessThan(1_000);
  });
});
