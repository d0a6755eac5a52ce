import { usdToNano } from '../../billing/money.js';
import { emptyUsage } from '../../ir/usage.js';
import { mapUpstreamModel } from '../../providers/map-upstream-model.js';
import type { RelayOperation } from '../relay-operation.js';
import { jsonPlan, upstreamServes } from './json-plan.js';
import { exactTokens } from '../../billing/token-estimate.js';

/**
 * `POST /v1/alpha/search` (client-api 4.4): the body goes up as it is (model mapped) and the reply
 * comes back as it is. The upstream reports no tokens, so a request is one web-search call with
 * zero tokens, at the model's `per_request` price, else the `web_search_price` setting.
 */
export const alphaSearchOperation: RelayOperation = {
  select: (candidates, model) =>
    candidates.filter((channel) => upstreamServes(channel, 'openai-alpha-search', model)),
  isStream: () => false,
  billingPrice: (price, settings) => ({
    ...price,
    input: 0,
    output: 0,
    cachedInput: 0,
    cacheWrite: 0,
    perRequest: price.perRequest ?? usdToNano(settings.web_search_price),
  }),
  preCharge: () => ({ inputTokens: exactTokens(0), outputCap: 0, calls: 1 }),
  forwardedHeaders: [],
  wantsUsageEvents: () => false,
  createPlanner: (input) => async (channel) => {
    const upstreamModel = mapUpstreamModel(channel, input.model);
    return jsonPlan({
      mode: 'passthrough',
      endpoint: 'openai-alpha-search',
      upstreamModel,
      body: { ...input.body, model: upstreamModel },
      reply: (upstreamBody) => ({
        body: upstreamBody,
        usage: { ...emptyUsage(), inputTokens: 0, outputTokens: 0, webSearchCalls: 1 },
        producedText: () => '',
        calls: 1,
      }),
    });
  },
};
