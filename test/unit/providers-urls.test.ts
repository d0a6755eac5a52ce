import { describe, expect, it } from 'vitest';
import { findProvider, providerTypes } from '../../src/providers/registry.js';
import type { ProviderDescriptor, UpstreamEndpoint } from '../../src/providers/provider-descriptor.js';

function provider(type: string): ProviderDescriptor {
  const found = findProvider(type);
  if (!found) throw new Error(`no provider ${type}`);
  return found;
}

function url(
  type: string,
  baseUrl: string | null,
  endpoint: UpstreamEndpoint,
  options = { model: 'm', stream: false },
) {
  return provider(type).buildUrl({ baseUrl, endpoint, ...options });
}

describe('provider registry', () => {
  it('lists the three types with their derived endpoint types', () => {
    expect(providerTypes).toEqual(['openai', 'anthropic', 'gemini']);
    expect(provider('anthropic').endpointTypes).toEqual(['anthropic', 'openai']);
    expect(findProvider('nope')).toBeUndefined();
  });
});

describe('upstream URLs', () => {
  it.each([
    ['https://api.example.com', 'https://api.example.com/v1/chat/completions'],
    ['https://api.example.com/', 'https://api.example.com/v1/chat/completions'],
    ['https://api.example.com/v1', 'https://api.example.com/v1/chat/completions'],
    ['https://api.example.com/v1/', 'https://api.example.com/v1/chat/completions'],
    ['https://host/proxy/v1', 'https://host/proxy/v1/chat/completions'],
    ['https://host/proxy', 'https://host/proxy/v1/chat/completions'],
    ['https://host/proxy//', 'https://host/proxy/v1/chat/completions'],
    ['http://127.0.0.1:8080', 'http://127.0.0.1:8080/v1/chat/completions'],
  ])('openai chat from %s', (baseUrl, expected) => {
    expect(url('openai', baseUrl, 'openai-chat')).toBe(expected);
  });

  it('openai defaults and other endpoints', () => {
    expect(url('openai', null, 'openai-chat')).toBe('https://api.openai.com/v1/chat/completions');
    expect(url('openai', 'https://h/v1', 'openai-responses')).toBe('https://h/v1/responses');
    expect(url('openai', 'https://h', 'openai-responses-compact')).toBe('https://h/v1/responses/compact');
    expect(url('openai', 'https://h', 'openai-images')).toBe('https://h/v1/images/generations');
    expect(url('openai', 'https://h', 'anthropic-messages')).toBeUndefined();
  });

  it.each([
    [null, 'https://api.anthropic.com/v1/messages'],
    ['https://gw.example.com/', 'https://gw.example.com/v1/messages'],
    ['https://gw.example.com/v1', 'https://gw.example.com/v1/messages'],
    ['https://gw.example.com/claude/v1/', 'https://gw.example.com/claude/v1/messages'],
  ])('anthropic messages from %s', (baseUrl, expected) => {
    expect(url('anthropic', baseUrl, 'anthropic-messages')).toBe(expected);
    expect(url('anthropic', baseUrl, 'openai-chat')).toBeUndefined();
  });

  it.each([
    [null, 'https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash'],
    ['https://g.example.com', 'https://g.example.com/v1beta/models/gemini-2.5-flash'],
    ['https://g.example.com/v1beta', 'https://g.example.com/v1beta/models/gemini-2.5-flash'],
    ['https://g.example.com/v1beta/', 'https://g.example.com/v1beta/models/gemini-2.5-flash'],
    ['https://g.example.com/v1', 'https://g.example.com/v1beta/models/gemini-2.5-flash'],
    ['https://g.example.com/google/v1beta', 'https://g.example.com/google/v1beta/models/gemini-2.5-flash'],
  ])('gemini generateContent from %s', (baseUrl, prefix) => {
    const model = 'gemini-2.5-flash';
    expect(url('gemini', baseUrl, 'gemini-generate-content', { model, stream: false })).toBe(
      `${prefix}:generateContent`,
    );
    expect(url('gemini', baseUrl, 'gemini-generate-content', { model, stream: true })).toBe(
      `${prefix}:streamGenerateContent?alt=sse`,
    );
  });

  it('gemini model names keep their collection and are path-safe', () => {
    const build = (model: string) =>
      url('gemini', 'https://g', 'gemini-generate-content', { model, stream: false });
    expect(build('models/gemini-pro')).toBe('https://g/v1beta/models/gemini-pro:generateContent');
    expect(build('tunedModels/my-tune')).toBe('https://g/v1beta/tunedModels/my-tune:generateContent');
    expect(build('odd?name#x')).toBe('https://g/v1beta/models/odd%3Fname%23x:generateContent');
  });
});
