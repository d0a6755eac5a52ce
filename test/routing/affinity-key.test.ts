import { describe, expect, it } from 'vitest';
import { affinityKeyOf, stickyId } from '../../src/routing/policy/affinity/affinity-key.js';

// admin-api 11.4: the affinity key is the first of these found.
describe('affinityKeyOf', () => {
  const allHeaders = { 'x-session-affinity': 'affinity', session_id: 'session', 'x-session-id': 'x-session' };
  const allBody = { prompt_cache_key: 'cache-key', metadata: { user_id: 'user' } };

  it('takes prompt_cache_key first on responses and chat completions', () => {
    expect(affinityKeyOf('openai-responses', allBody, allHeaders)).toBe('cache-key');
    expect(affinityKeyOf('openai-chat', allBody, allHeaders)).toBe('cache-key');
  });

  it('ignores prompt_cache_key on messages and Gemini, and metadata.user_id off messages', () => {
    expect(affinityKeyOf('anthropic-messages', allBody, {})).toBe('user');
    expect(affinityKeyOf('gemini', allBody, {})).toBeUndefined();
    expect(affinityKeyOf('openai-chat', { metadata: { user_id: 'user' } }, {})).toBeUndefined();
    expect(affinityKeyOf('openai-responses', { metadata: { user_id: 'user' } }, {})).toBeUndefined();
  });

  it('then x-session-affinity, then session_id, then x-session-id, on every protocol', () => {
    for (const protocol of ['openai-chat', 'openai-responses', 'anthropic-messages', 'gemini'] as const) {
      expect(affinityKeyOf(protocol, {}, allHeaders)).toBe('affinity');
      expect(affinityKeyOf(protocol, {}, { ...allHeaders, 'x-session-affinity': undefined })).toBe('session');
      expect(affinityKeyOf(protocol, {}, { 'x-session-id': 'x-session' })).toBe('x-session');
    }
  });

  it('prefers headers to metadata.user_id on messages', () => {
    expect(affinityKeyOf('anthropic-messages', allBody, allHeaders)).toBe('affinity');
    expect(affinityKeyOf('anthropic-messages', allBody, { 'x-session-id': 'x-session' })).toBe('x-session');
  });

  it('reads the first non-empty value of a repeated header', () => {
    expect(affinityKeyOf('gemini', {}, { 'x-session-affinity': ['one', 'two'] })).toBe('one');
    expect(affinityKeyOf('gemini', {}, { 'x-session-affinity': ['', 'two'] })).toBe('two');
    expect(affinityKeyOf('gemini', {}, { 'x-session-affinity': [], session_id: 's' })).toBe('s');
  });

  it('skips empty values and values of the wrong type', () => {
    const headers = { 'x-session-affinity': '', session_id: 'session' };
    expect(affinityKeyOf('openai-chat', { prompt_cache_key: '' }, headers)).toBe('session');
    expect(affinityKeyOf('openai-chat', { prompt_cache_key: 42 }, headers)).toBe('session');
    expect(affinityKeyOf('openai-responses', { prompt_cache_key: ['k'] }, {})).toBeUndefined();
    expect(affinityKeyOf('openai-responses', { prompt_cache_key: null }, {})).toBeUndefined();
    for (const metadata of [null, 'user', ['user'], { user_id: 7 }, { user_id: '' }, { user_id: {} }]) {
      expect(affinityKeyOf('anthropic-messages', { metadata }, {})).toBeUndefined();
    }
  });

  it('is undefined without any source', () => {
    expect(affinityKeyOf('openai-responses', { model: 'm', input: 'hi' }, { authorization: 'x' })).toBe(
      undefined,
    );
  });
});

describe('stickyId', () => {
  it('is a stable 32-digit hex hash', () => {
    expect(stickyId(1, 'conversation')).toMatch(/^[0-9a-f]{32}$/);
    expect(stickyId(1, 'conversation')).toBe(stickyId(1, 'conversation'));
  });

  it('stays the same from one version to the next, since instances share ids through Redis', () => {
    expect(stickyId(7, 'session-1')).toBe('6102bc97247592cbc9918bb767e2661c');
  });

  it('tells key ids and affinity keys apart', () => {
    expect(stickyId(1, 'conversation')).not.toBe(stickyId(2, 'conversation'));
    expect(stickyId(1, 'conversation')).not.toBe(stickyId(1, 'conversation-2'));
    expect(stickyId(1, '2:x')).not.toBe(stickyId(12, 'x'));
  });

  it('never contains the affinity key', () => {
    const affinityKey = 'abcdef0123';
    expect(stickyId(3, affinityKey)).not.toContain(affinityKey);
    expect(stickyId(3, 'a')).not.toContain('3:a');
  });
});
