import { splitThinkingSuffix } from './thinking-suffix';

describe('splitThinkingSuffix', () => {
  it.each([
    ['claude-sonnet-4-5#thinking', 'claude-sonnet-4-5', true],
    ['smart#thinking', 'smart', true],
    ['claude-sonnet-4-5', 'claude-sonnet-4-5', false],
    ['#thinking', '', true],
    ['claude-sonnet-4-5#thinking#thinking', 'claude-sonnet-4-5#thinking', true],
    ['claude-sonnet-4-5#Thinking', 'claude-sonnet-4-5#Thinking', false],
    ['claude-sonnet-4-5#thinking ', 'claude-sonnet-4-5#thinking ', false],
    ['claude-sonnet-4-5-thinking', 'claude-sonnet-4-5-thinking', false],
    ['claude#thinking-sonnet', 'claude#thinking-sonnet', false],
    ['thinking', 'thinking', false],
  ])('%j -> model %j, suffix %s', (name, model, thinkingSuffix) => {
    expect(splitThinkingSuffix(name)).toEqual({ model, thinkingSuffix });
  });
});
