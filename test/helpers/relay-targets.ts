import type { ErrorFamily } from './expect-spec-answer.js';

/** One relaying endpoint as a hostile-input test drives it against the relay fixture's `gpt-4o`. */
export interface RelayTarget {
  name: string;
  path: string;
  /** The error shape after model selection (client-api section 7). */
  family: ErrorFamily;
  headers(key: string): Record<string, string>;
  /** A small valid body; `model` where the endpoint takes it from the body. */
  body(): Record<string, unknown>;
  /** Top-level fields the endpoint reads, for wrong-type probes. */
  fields: readonly string[];
  /** Where the conversation goes, for huge-array probes. */
  listField: string;
  listItem(index: number): unknown;
}

const turn = (index: number) => ({ role: index % 2 === 0 ? 'user' : 'assistant', content: 'hi' });

export const relayTargets: readonly RelayTarget[] = [
  {
    name: 'chat completions',
    path: '/v1/chat/completions',
    family: 'openai',
    headers: (key) => ({ authorization: `Bearer ${key}` }),
    body: () => ({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] }),
    fields: [
      'model',
      'messages',
      'stream',
      'stream_options',
      'max_tokens',
      'max_completion_tokens',
      'temperature',
      'top_p',
      'n',
      'stop',
      'tools',
      'tool_choice',
      'parallel_tool_calls',
      'response_format',
      'reasoning_effort',
      'seed',
      'user',
      'metadata',
      'logit_bias',
      'web_search_options',
    ],
    listField: 'messages',
    listItem: turn,
  },
  {
    name: 'responses',
    path: '/v1/responses',
    family: 'openai',
    headers: (key) => ({ authorization: `Bearer ${key}` }),
    body: () => ({ model: 'gpt-4o', input: 'hi' }),
    fields: [
      'model',
      'input',
      'instructions',
      'max_output_tokens',
      'temperature',
      'top_p',
      'stream',
      'stream_options',
      'tools',
      'tool_choice',
      'parallel_tool_calls',
      'reasoning',
      'text',
      'previous_response_id',
      'include',
      'store',
      'truncation',
      'prompt_cache_key',
      'top_logprobs',
      'metadata',
    ],
    listField: 'input',
    listItem: turn,
  },
  {
    name: 'messages',
    path: '/v1/messages',
    family: 'anthropic',
    headers: (key) => ({ 'x-api-key': key, 'anthropic-version': '2023-06-01' }),
    body: () => ({ model: 'gpt-4o', max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] }),
    fields: [
      'model',
      'messages',
      'max_tokens',
      'system',
      'stream',
      'temperature',
      'top_p',
      'top_k',
      'stop_sequences',
      'tools',
      'tool_choice',
      'thinking',
      'metadata',
      'service_tier',
    ],
    listField: 'messages',
    listItem: turn,
  },
  {
    name: 'generateContent',
    path: '/v1beta/models/gpt-4o:generateContent',
    family: 'openai',
    headers: (key) => ({ 'x-goog-api-key': key }),
    body: () => ({ contents: [{ role: 'user', parts: [{ text: 'hi' }] }] }),
    fields: [
      'contents',
      'systemInstruction',
      'generationConfig',
      'tools',
      'toolConfig',
      'safetySettings',
      'cachedContent',
    ],
    listField: 'contents',
    listItem: (index) => ({ role: index % 2 === 0 ? 'user' : 'model', parts: [{ text: 'hi' }] }),
  },
  {
    name: 'streamGenerateContent',
    path: '/v1beta/models/gpt-4o:streamGenerateContent?alt=sse',
    family: 'openai',
    headers: (key) => ({ 'x-goog-api-key': key }),
    body: () => ({ contents: [{ role: 'user', parts: [{ text: 'hi' }] }] }),
    fields: ['contents', 'systemInstruction', 'generationConfig', 'tools', 'toolConfig'],
    listField: 'contents',
    listItem: (index) => ({ role: index % 2 === 0 ? 'user' : 'model', parts: [{ text: 'hi' }] }),
  },
];

/** Management API bodies, sent as the root admin. */
export const adminBodyTargets: readonly { method: string; path: string; body: Record<string, unknown> }[] = [
  { method: 'POST', path: '/api/users', body: { username: 'hostile-user', balance: 1 } },
  { method: 'PATCH', path: '/api/settings', body: { retry_times: 2 } },
  {
    method: 'POST',
    path: '/api/channels',
    body: { name: 'hostile', type: 'openai', keys: ['k'], models: ['m'], base_url: 'http://127.0.0.1:9' },
  },
  { method: 'PUT', path: '/api/prices/hostile-model', body: { input: 1, output: 2 } },
  { method: 'PUT', path: '/api/groups/hostile', body: { ratio: 1 } },
];
