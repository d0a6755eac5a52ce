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
  const origin = baseUrl ?? provider(type).defaultBaseUrl({});
  if (origin === undefined) throw new Error(`${type} has no default origin`);
  return provider(type).buildUrl({ origin, key: 'k', config: {}, endpoint, ...options });
}

describe('provider registry', () => {
  it('lists the three types with their derived endpoint types', () => {
    expect(providerTypes).toEqual([
      'openai',
      'anthropic',
      'gemini',
      'azure',
      'bedrock',
      'vertex',
      'deepseek',
      'openrouter',
      'xai',
      'mistral',
      'groq',
      'together',
      'fireworks',
      'moonshot',
      'zhipu',
      'qwen',
      'siliconflow',
      'ollama',
      'vllm',
    ]);
    expect(provider('anthropic').endpointTypes('claude-sonnet-4-5')).toEqual(['anthropic', 'openai']);
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

describe('azure', () => {
  const azure = (apiVersion: string | undefined, baseUrl: string, endpoint: UpstreamEndpoint) =>
    provider('azure').buildUrl({
      origin: baseUrl,
      key: 'k',
      config: apiVersion === undefined ? {} : { api_version: apiVersion },
      endpoint,
      model: 'my deployment',
      stream: false,
    });

  it.each([
    'https://res.openai.azure.com',
    'https://res.openai.azure.com/',
    'https://res.openai.azure.com/openai',
    'https://res.openai.azure.com/openai/v1/',
  ])('the v1 API from %s: deployment in the body', (baseUrl) => {
    expect(azure(undefined, baseUrl, 'openai-chat')).toBe(
      'https://res.openai.azure.com/openai/v1/chat/completions',
    );
    expect(azure('v1', baseUrl, 'openai-responses')).toBe('https://res.openai.azure.com/openai/v1/responses');
    expect(azure('v1', baseUrl, 'openai-embeddings')).toBe(
      'https://res.openai.azure.com/openai/v1/embeddings',
    );
  });

  it('a dated version: deployment in the path, except for Responses', () => {
    const base = 'https://res.openai.azure.com';
    expect(azure('2024-10-21', base, 'openai-chat')).toBe(
      'https://res.openai.azure.com/openai/deployments/my%20deployment/chat/completions?api-version=2024-10-21',
    );
    expect(azure('2025-04-01-preview', base, 'openai-responses')).toBe(
      'https://res.openai.azure.com/openai/responses?api-version=2025-04-01-preview',
    );
    expect(azure('2024-10-21', base, 'openai-images')).toBe(
      'https://res.openai.azure.com/openai/deployments/my%20deployment/images/generations?api-version=2024-10-21',
    );
    expect(azure('2024-10-21', base, 'anthropic-messages')).toBeUndefined();
  });

  it('converts Responses clients to chat for dated versions older than the Responses API', () => {
    const served = (version: string) => provider('azure').upstreamEndpoints('d', { api_version: version });
    expect(served('v1')).toContain('openai-responses');
    expect(served('2025-04-01-preview')).toContain('openai-responses');
    expect(served('2025-03-01-preview')).toContain('openai-responses');
    expect(served('2024-10-21')).not.toContain('openai-responses');
    expect(served('2024-10-21')).toContain('openai-chat');
  });

  it('has no public origin, and sends the key as api-key', () => {
    expect(provider('azure').defaultBaseUrl({ api_version: 'v1' })).toBeUndefined();
    expect(provider('azure').buildHeaders({ key: 'k', config: {} })).toEqual({
      'content-type': 'application/json',
      'api-key': 'k',
    });
  });
});

describe('OpenAI-compatible presets', () => {
  it.each([
    ['deepseek', 'https://api.deepseek.com/v1/chat/completions'],
    ['openrouter', 'https://openrouter.ai/api/v1/chat/completions'],
    ['xai', 'https://api.x.ai/v1/chat/completions'],
    ['mistral', 'https://api.mistral.ai/v1/chat/completions'],
    ['groq', 'https://api.groq.com/openai/v1/chat/completions'],
    ['together', 'https://api.together.xyz/v1/chat/completions'],
    ['fireworks', 'https://api.fireworks.ai/inference/v1/chat/completions'],
    ['moonshot', 'https://api.moonshot.ai/v1/chat/completions'],
    ['zhipu', 'https://open.bigmodel.cn/api/paas/v4/chat/completions'],
    ['qwen', 'https://dashscope-intl.aliyuncs.com/compatible-mode/v1/chat/completions'],
    ['siliconflow', 'https://api.siliconflow.cn/v1/chat/completions'],
    ['ollama', 'http://127.0.0.1:11434/v1/chat/completions'],
    ['vllm', 'http://127.0.0.1:8000/v1/chat/completions'],
  ])('%s chat completions at its public origin', (type, expected) => {
    expect(url(type, null, 'openai-chat')).toBe(expected);
    expect(provider(type).endpointTypes('any-model')).toEqual(['openai']);
  });

  it('a base URL given with the vendor version is not doubled', () => {
    expect(url('zhipu', 'https://open.bigmodel.cn/api/paas/v4/', 'openai-chat')).toBe(
      'https://open.bigmodel.cn/api/paas/v4/chat/completions',
    );
    expect(url('deepseek', 'https://api.deepseek.com/v1', 'openai-chat')).toBe(
      'https://api.deepseek.com/v1/chat/completions',
    );
  });

  it('serves only the endpoints the vendor has: a Responses client is converted for DeepSeek', () => {
    expect(provider('deepseek').upstreamEndpoints('deepseek-chat', {})).toEqual(['openai-chat']);
    expect(url('deepseek', null, 'openai-responses')).toBeUndefined();
    expect(url('siliconflow', null, 'jina-rerank')).toBe('https://api.siliconflow.cn/v1/rerank');
  });

  it('local servers run without a key: none is sent then', () => {
    expect(provider('ollama').keyOptional).toBe(true);
    expect(provider('deepseek').keyOptional).toBe(false);
    expect(provider('ollama').buildHeaders({ key: '', config: {} })).toEqual({
      'content-type': 'application/json',
    });
  });
});
