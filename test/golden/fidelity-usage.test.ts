import { beforeAll, describe, expect, test } from 'vitest';
import type { FakeUsage } from '../fakes/fake-upstream.js';
import {
  callFamily,
  FAMILIES,
  isPassthrough,
  MODELS,
  useFidelityGateway,
  VENDORS,
  type ClientFamily,
  type FidelityRequest,
  type Vendor,
} from './extras-clients.js';

/**
 * Usage detail and cost: each fake reports cache reads, cache writes and reasoning tokens in its
 * vendor's usage block; the client sees them in its family's usage fields, the usage log holds them,
 * and the log's cost is the price worked out by hand from admin-api section 3, rule 1.
 */
const USAGE: FakeUsage = {
  inputTokens: 1200,
  outputTokens: 450,
  cachedTokens: 700,
  cacheWriteTokens: 300,
  reasoningTokens: 150,
};
/** USD per 1,000,000 tokens. */
const PRICE = { input: 3, output: 15, cached_input: 0.3, cache_write: 3.75 };

/** Counts as the gateway must understand them: input includes cache reads and writes, output includes reasoning. */
interface Counts {
  input: number;
  cacheRead: number;
  cacheWrite: number;
  output: number;
  reasoning: number;
}

/** What each vendor's usage block can say of the fake's counts. */
const REPORTED: Record<Vendor, Counts> = {
  // https://platform.openai.com/docs/api-reference/chat/object#chat/object-usage: no cache-write count.
  openai: { input: 1200, cacheRead: 700, cacheWrite: 0, output: 450, reasoning: 150 },
  // https://docs.claude.com/en/api/messages#response-usage: `input_tokens` (200) excludes cache reads
  // and writes; the fake's block has no thinking-token count.
  anthropic: { input: 1200, cacheRead: 700, cacheWrite: 300, output: 450, reasoning: 0 },
  // https://ai.google.dev/api/generate-content#UsageMetadata: no cache-write count; thoughts are
  // counted apart from the candidates.
  gemini: { input: 1200, cacheRead: 700, cacheWrite: 0, output: 450, reasoning: 150 },
};

/** admin-api section 3, rule 1, group ratio 1. */
function costByHand(counts: Counts): number {
  const uncached = counts.input - counts.cacheRead - counts.cacheWrite;
  return (
    (uncached * PRICE.input +
      counts.cacheRead * PRICE.cached_input +
      counts.cacheWrite * PRICE.cache_write +
      counts.output * PRICE.output) /
    1e6
  );
}

const fixture = useFidelityGateway();
beforeAll(async () => {
  for (const vendor of VENDORS) await fixture().gw.admin('PUT', `/prices/${MODELS[vendor]}`, PRICE);
});

describe.each(FAMILIES)('%s client', (family) => {
  describe.each(VENDORS)('to %s upstream', (vendor) => {
    test.each([false, true])('stream %s', async (stream) => {
      const fake = fixture().fakes[vendor];
      fake.scriptAlways({ type: 'reply', usage: USAGE });
      const request: FidelityRequest = { family, model: MODELS[vendor], stream };

      const view = await callFamily(fixture().clients, request);

      const [sent, ...more] = fake.requests;
      expect(more).toHaveLength(0);
      expect(sent!.refused).toBeUndefined();
      const counts = REPORTED[vendor];
      expectClientUsage(family, view.usage, counts);
      if (isPassthrough(family, vendor)) {
        const own = await callFamily(fixture().direct[vendor], request);
        expect(view.usage).toEqual(own.usage);
      }

      const [log] = await fixture().logs();
      expect(log).toMatchObject({
        model: MODELS[vendor],
        stream,
        status_code: 200,
        prompt_tokens: counts.input,
        completion_tokens: counts.output,
        cached_tokens: counts.cacheRead,
        cache_write_tokens: counts.cacheWrite,
        reasoning_tokens: counts.reasoning,
      });
      expect(Math.abs(log.cost - costByHand(counts))).toBeLessThanOrEqual(1e-9);
    });
  });
});

/** Each family's usage block, in its own terms; a count a family has no field for is left out. */
function expectClientUsage(family: ClientFamily, usage: any, counts: Counts): void {
  expect(usage).toBeDefined();
  switch (family) {
    case 'openai-chat':
      // `CompletionUsage`: prompt tokens include cached ones, completion tokens include reasoning.
      // Chat completions has no cache-write count.
      expect(usage.prompt_tokens).toBe(counts.input);
      expect(usage.completion_tokens).toBe(counts.output);
      expect(usage.total_tokens).toBe(counts.input + counts.output);
      expect(usage.prompt_tokens_details?.cached_tokens ?? 0).toBe(counts.cacheRead);
      expect(usage.completion_tokens_details?.reasoning_tokens ?? 0).toBe(counts.reasoning);
      break;
    case 'openai-responses':
      // `ResponseUsage`: the same split as chat; no cache-write count either.
      expect(usage.input_tokens).toBe(counts.input);
      expect(usage.output_tokens).toBe(counts.output);
      expect(usage.total_tokens).toBe(counts.input + counts.output);
      expect(usage.input_tokens_details?.cached_tokens ?? 0).toBe(counts.cacheRead);
      expect(usage.output_tokens_details?.reasoning_tokens ?? 0).toBe(counts.reasoning);
      break;
    case 'anthropic-messages':
      // `Usage`: `input_tokens` excludes cache reads and writes, which have their own counts.
      expect(usage.input_tokens).toBe(counts.input - counts.cacheRead - counts.cacheWrite);
      expect(usage.cache_read_input_tokens ?? 0).toBe(counts.cacheRead);
      expect(usage.cache_creation_input_tokens ?? 0).toBe(counts.cacheWrite);
      expect(usage.output_tokens).toBe(counts.output);
      // Cache writes by time to live, where the block tells them apart, add up to the writes.
      if (usage.cache_creation)
        expect(
          usage.cache_creation.ephemeral_5m_input_tokens + usage.cache_creation.ephemeral_1h_input_tokens,
        ).toBe(counts.cacheWrite);
      // The SDK's `output_tokens_details.thinking_tokens` is optional on the wire; when sent, it
      // must be the reasoning count.
      if (usage.output_tokens_details)
        expect(usage.output_tokens_details.thinking_tokens).toBe(counts.reasoning);
      break;
    case 'gemini':
      // `UsageMetadata`: the prompt count includes cached tokens; candidates exclude thoughts.
      // Gemini has no cache-write count.
      expect(usage.promptTokenCount).toBe(counts.input);
      expect(usage.cachedContentTokenCount ?? 0).toBe(counts.cacheRead);
      expect(usage.thoughtsTokenCount ?? 0).toBe(counts.reasoning);
      expect(usage.candidatesTokenCount).toBe(counts.output - counts.reasoning);
      expect(usage.totalTokenCount).toBe(counts.input + counts.output);
      break;
  }
}
