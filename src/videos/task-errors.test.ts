import { TASK_ERROR_CODES } from '../errors/error-codes';
import { taskError, upstreamFailure } from './task-errors';

describe('task errors: the gateway\'s words, never the upstream\'s', () => {
  it.each(Object.keys(TASK_ERROR_CODES) as Array<keyof typeof TASK_ERROR_CODES>)('%s has a fixed message of its own', (code) => {
    expect(taskError(code)).toEqual({ code, message: expect.stringMatching(/^The (upstream|gateway) /) });
  });

  it.each([
    ['a plain upstream code is kept, its text is not', { code: 'generation_failed', message: 'render node gpu-7.internal.corp crashed' }, 'generation_failed'],
    ['no code at all', { message: 'boom' }, 'video_generation_failed'],
    ['a null code', { code: null, message: 'boom' }, 'video_generation_failed'],
    ['a code holding a masked key', { code: 'invalid key sk-****abcd', message: 'x' }, 'video_generation_failed'],
    ['a code holding a host name', { code: 'db-1.internal.corp', message: 'x' }, 'video_generation_failed'],
    ['a code with capitals (a key fragment, say)', { code: 'AIzaSyA1b2C3', message: 'x' }, 'video_generation_failed'],
    ['a code too long to be a code', { code: 'a'.repeat(65), message: 'x' }, 'video_generation_failed'],
  ])('%s', (_name, reported, code) => {
    const error = upstreamFailure(reported);
    expect(error.code).toBe(code);
    expect(error.message).toBe('The upstream could not generate the video; the charge was refunded.');
  });

  it.each(['content_moderation', 'moderation_blocked', 'content_policy_violation', 'safety_filter'])('a moderation-style code (%s) gets the content-policy message', (code) => {
    expect(upstreamFailure({ code, message: 'Your prompt mentioned <other tenant text>' })).toEqual({
      code,
      message: 'The upstream declined to generate this video under its content policy; the charge was refunded.',
    });
  });
});
