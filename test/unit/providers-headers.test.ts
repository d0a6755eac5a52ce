import { describe, expect, it } from 'vitest';
import { findProvider } from '../../src/providers/registry.js';

function headers(type: string, extraHeaders?: Record<string, string>) {
  return findProvider(type)!.buildHeaders({ key: 'sk-channel', config: {}, extraHeaders });
}

describe('upstream headers', () => {
  it('openai: Bearer key', () => {
    expect(headers('openai')).toEqual({
      'content-type': 'application/json',
      authorization: 'Bearer sk-channel',
    });
  });

  it('anthropic: x-api-key and a default version the client may override', () => {
    expect(headers('anthropic')).toEqual({
      'content-type': 'application/json',
      'anthropic-version': '2023-06-01',
      'x-api-key': 'sk-channel',
    });
    expect(headers('anthropic', { 'Anthropic-Version': '2024-01-01', 'anthropic-beta': 'x' })).toMatchObject({
      'anthropic-version': '2024-01-01',
      'anthropic-beta': 'x',
    });
  });

  it('gemini: x-goog-api-key', () => {
    expect(headers('gemini')).toEqual({ 'content-type': 'application/json', 'x-goog-api-key': 'sk-channel' });
  });

  it('forwarded extras never carry credentials', () => {
    const extra = {
      Authorization: 'Bearer client-key',
      'x-api-key': 'client-key',
      'x-goog-api-key': 'client-key',
      Host: 'evil',
      'x-custom': 'kept',
    };
    expect(headers('openai', extra)).toEqual({
      'content-type': 'application/json',
      'x-custom': 'kept',
      authorization: 'Bearer sk-channel',
    });
    expect(headers('anthropic', extra)).not.toHaveProperty('authorization');
    expect(headers('gemini', extra)['x-goog-api-key']).toBe('sk-channel');
  });
});
