import { intersectDomains, intersectModels } from './credential-scope';

const set = (...values: string[]) => new Set(values);

describe("a temporary credential's scope within its parent's", () => {
  it('keeps the models both lists allow; no list on either side means the other one', () => {
    expect(intersectModels(null, null)).toBeNull();
    expect(intersectModels(null, set('a'))).toEqual(set('a'));
    expect(intersectModels(set('a', 'b'), null)).toEqual(set('a', 'b'));
    expect(intersectModels(set('a', 'b'), set('b', 'c'))).toEqual(set('b'));
    expect(intersectModels(set('a'), set('c'))).toEqual(set());
  });

  it('keeps the narrower of two nested domains, and nothing of disjoint ones', () => {
    expect(intersectDomains(null, set('example.com'))).toEqual(set('example.com'));
    expect(intersectDomains(set('example.com', 'example.org'), set('docs.example.com'))).toEqual(set('docs.example.com'));
    expect(intersectDomains(set('wiki.example.com'), set('example.com'))).toEqual(set('wiki.example.com'));
    expect(intersectDomains(set('example.org'), set('example.com'))).toEqual(set());
    expect(intersectDomains(set('badexample.com'), set('example.com'))).toEqual(set());
  });
});
