import type { NewUsageLog } from '../../src/store/usage-logs-repository.js';

/** The usage record a relayed request settles with. */
export function usageRecord(overrides: Partial<NewUsageLog> = {}): NewUsageLog {
  return {
    requestId: 'r',
    createdAt: 1,
    userId: 0,
    keyId: 0,
    channelId: 7,
    model: 'gpt-4o',
    endpoint: 'chat-completions',
    stream: false,
    statusCode: 200,
    promptTokens: 10,
    completionTokens: 20,
    cachedTokens: 1,
    cacheWriteTokens: 2,
    reasoningTokens: 3,
    cost: 0,
    latencyMs: 5,
    firstByteMs: 4,
    error: null,
    ...overrides,
  };
}
