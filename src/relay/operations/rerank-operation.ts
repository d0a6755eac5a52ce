import { estimatePromptTokens } from '../../billing/estimate-prompt-tokens.js';
import { emptyUsage, type Usage } from '../../ir/usage.js';
import { mapUpstreamModel } from '../../providers/map-upstream-model.js';
import { asCount, asJsonObject } from '../../protocols/wire-json.js';
import { modelPrice, type RelayOperation } from '../relay-operation.js';
import { jsonPlan, upstreamServes } from './json-plan.js';

/**
 * `POST /v1/rerank` (admin-api section 6): relayed as it is to channels of the OpenAI protocol
 * that declare `jina-rerank`. Billed by the tokens the reply reports, else one call at
 * `per_request`; the reservation covers either.
 */
export const rerankOperation: RelayOperation = {
  select: (candidates, model) =>
    candidates.filter((channel) => upstreamServes(channel, 'jina-rerank', model)),
  isStream: () => false,
  billingPrice: modelPrice,
  preCharge: (body) => ({ inputTokens: estimatePromptTokens(body), outputCap: 0, calls: 1 }),
  forwardedHeaders: [],
  wantsUsageEvents: () => false,
  createPlanner: (input) => async (channel) => {
    const upstreamModel = mapUpstreamModel(channel, input.model);
    return jsonPlan({
      mode: 'passthrough',
      endpoint: 'jina-rerank',
      upstreamModel,
      body: { ...input.body, model: upstreamModel },
      reply: (upstreamBody, reply) => {
        const parsed = reply.value();
        const tokens = reportedTokens(parsed);
        return {
          body: upstreamBody,
          usage:
            tokens === undefined
              ? zeroTokens()
              : { ...zeroTokens(), inputTokens: tokens, raw: usageOf(parsed) },
          producedText: () => '',
          calls: tokens === undefined ? 1 : 0,
        };
      },
    });
  },
};

function zeroTokens(): Usage {
  return { ...emptyUsage(), inputTokens: 0, outputTokens: 0 };
}

function usageOf(reply: unknown): unknown {
  return asJsonObject(reply)?.usage;
}

/**
 * Jina reports `usage.total_tokens` (https://jina.ai/reranker/), compatible servers such as vLLM
 * `prompt_tokens` too. A rerank reads its input and writes no tokens, so either count is input.
 */
function reportedTokens(reply: unknown): number | undefined {
  const usage = asJsonObject(usageOf(reply));
  return asCount(usage?.prompt_tokens) ?? asCount(usage?.total_tokens);
}
