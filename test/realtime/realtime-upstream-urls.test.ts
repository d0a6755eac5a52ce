import { describe, expect, it } from 'vitest';
import { findProvider } from '../../src/providers/registry.js';
import { declaredUpstreamEndpoints } from '../../src/routing/declared-upstream-endpoints.js';

/** The realtime WebSocket's address at each kind of upstream (admin-api sections 5 and 14). */
const realtimeUrl = (
  type: string,
  origin: string,
  config: Record<string, unknown> = {},
  model = 'gpt-realtime',
) =>
  findProvider(type)!.buildUrl({
    origin,
    key: 'k',
    config,
    endpoint: 'openai-realtime',
    model,
    stream: true,
  });

describe('realtime URLs', () => {
  it('OpenAI (and a server speaking its API): /v1/realtime with the upstream model in the query, never doubling /v1', () => {
    expect(realtimeUrl('openai', 'https://api.openai.com')).toBe(
      'https://api.openai.com/v1/realtime?model=gpt-realtime',
    );
    expect(realtimeUrl('openai', 'http://127.0.0.1:9/v1/', {}, 'a b&c')).toBe(
      'http://127.0.0.1:9/v1/realtime?model=a%20b%26c',
    );
  });

  it('Azure: the deployment as `model` on the v1 API, as `deployment` beside a dated api-version', () => {
    const resource = 'https://example.openai.azure.com';
    expect(realtimeUrl('azure', resource, { api_version: 'v1' }, 'my-deployment')).toBe(
      'https://example.openai.azure.com/openai/v1/realtime?model=my-deployment',
    );
    expect(
      realtimeUrl('azure', `${resource}/openai`, { api_version: '2025-04-01-preview' }, 'my deployment'),
    ).toBe(
      'https://example.openai.azure.com/openai/realtime?api-version=2025-04-01-preview&deployment=my%20deployment',
    );
  });

  it('upstreams without a realtime WebSocket have none', () => {
    expect(realtimeUrl('anthropic', 'https://api.anthropic.com')).toBeUndefined();
    expect(realtimeUrl('gemini', 'https://generativelanguage.googleapis.com')).toBeUndefined();
    // Presets list the endpoints their vendor has; none has the Realtime API.
    expect(realtimeUrl('deepseek', 'https://api.deepseek.com')).toBeUndefined();
  });

  it('a channel declaring `realtime` is called there; one declaring chat only is not', () => {
    const native = findProvider('openai')!.upstreamEndpoints('gpt-realtime', {});
    expect(declaredUpstreamEndpoints(['realtime'], native)).toEqual(['openai-realtime']);
    expect(declaredUpstreamEndpoints(['openai'], native)).not.toContain('openai-realtime');
  });
});
