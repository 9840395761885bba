import { describe, expect, it } from 'vitest';
import { planTextInput, TEXT_INPUT_LIMITS } from '../../src/worker/backend/input-plan.js';
import { isReservedEnvKey } from '../../src/shared/env-policy.js';
import { filterLaunchEnv } from '../../src/worker/backend/launch-env.js';

describe('planTextInput', () => {
  const long = 'x'.repeat(TEXT_INPUT_LIMITS.maxTypedBytes + 1);
  const longCjk = '你'.repeat(Math.floor(TEXT_INPUT_LIMITS.maxTypedBytes / 3) + 1);
  it.each([
    ['', { method: 'none' }],
    ['hello', { method: 'type', text: 'hello' }],
    ['-leading; `x` $(y)', { method: 'type', text: '-leading; `x` $(y)' }],
    ['tab\there', { method: 'paste', text: 'tab\there' }], // a typed tab would complete (issue 12)
    ['a\nb', { method: 'paste', text: 'a\nb' }],
    ['a\r\nb', { method: 'paste', text: 'a\nb' }],
    ['only CR\r', { method: 'paste', text: 'only CR\r' }],
    [long, { method: 'paste', text: long }],
    [longCjk, { method: 'paste', text: longCjk }],
    ['x'.repeat(TEXT_INPUT_LIMITS.maxTypedBytes), { method: 'type', text: 'x'.repeat(TEXT_INPUT_LIMITS.maxTypedBytes) }],
  ])('%j', (text, plan) => {
    expect(planTextInput(text)).toEqual(plan);
  });
});

describe('launch env', () => {
  it.each([
    ['LARKMUX_HOME', true], ['LARK_APP_SECRET', true], ['TMUX', true], ['TMUX_PANE', true],
    ['TMUX_TMPDIR', false], ['ANTHROPIC_API_KEY', false], ['LARKY', false], ['PATH', false],
  ])('%s reserved: %s', (key, reserved) => {
    expect(isReservedEnvKey(key)).toBe(reserved);
  });

  it('passes allowed keys and refuses reserved ones by name only', () => {
    const r = filterLaunchEnv({ A: '1', LARK_APP_SECRET: 'supersecret', TMUX: 'x', 'BAD-NAME': 'v' });
    expect(r.env).toEqual({ A: '1' });
    expect(r.refused).toEqual(['LARK_APP_SECRET', 'TMUX', 'BAD-NAME']);
    expect(r.warnings).toHaveLength(3);
    expect(r.warnings.join('\n')).not.toContain('supersecret');
  });
});
