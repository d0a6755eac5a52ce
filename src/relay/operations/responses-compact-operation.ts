import { estimatePromptTokens } from '../../billing/estimate-prompt-tokens.js';
import { mapUpstreamModel } from '../../providers/map-upstream-model.js';
import { convertOpenAIResponsesUsage } from '../../protocols/openai-responses/convert-openai-responses-usage.js';
import { modelPrice, type RelayOperation } from '../relay-operation.js';
import { jsonPlan, upstreamServes } from './json-plan.js';

/** The only members that go upstream (client-api 4.3); everything else is dropped, `service_tier` included. */
const FORWARDED = [
  'model',
  'input',
  'instructions',
  'previous_response_id',
  'parallel_tool_calls',
  'prompt_cache_key',
  'prompt_cache_options',
  'prompt_cache_retention',
] as const;

/** Members the endpoint recognises without forwarding them (client-api 4.3). */
const RECOGNISED = new Set(['tools', 'reasoning', 'text', 'service_tier', 'stream']);

function forwardedMembers(body: Record<string, unknown>): Record<string, unknown> {
  const picked: Record<string, unknown> = {};
  for (const name of FORWARDED) if (Object.hasOwn(body, name)) picked[name] = body[name];
  return picked;
}

/**
 * `POST /v1/responses/compact` (client-api 4.3): channels of the OpenAI protocol only, a filtered
 * body, never streamed, the upstream's reply as it is, billed by its token usage like a response.
 * https://platform.openai.com/docs/api-reference/responses/compact
 */
export const responsesCompactOperation: RelayOperation = {
  select: (candidates, model) =>
    candidates.filter((channel) => upstreamServes(channel, 'openai-responses-compact', model)),
  isStream: () => false,
  billingPrice: modelPrice,
  preCharge: (body, settings) => ({
    inputTokens: estimatePromptTokens(forwardedMembers(body)),
    outputCap: settings.default_max_tokens,
    calls: 1,
  }),
  forwardedHeaders: [],
  wantsUsageEvents: () => false,
  createPlanner: (input) => {
    for (const name of Object.keys(input.body)) {
      if ((FORWARDED as readonly string[]).includes(name)) continue;
      input.losses.dropped(
        name,
        RECOGNISED.has(name) ? 'not forwarded by responses compact' : 'not a responses compact member',
      );
    }
    const forwarded = forwardedMembers(input.body);
    return async (channel) => {
      const upstreamModel = mapUpstreamModel(channel, input.model);
      return jsonPlan({
        mode: 'passthrough',
        endpoint: 'openai-responses-compact',
        upstreamModel,
        body: { ...forwarded, model: upstreamModel },
        reply: (upstreamBody, reply) => ({
          body: upstreamBody,
          usage: convertOpenAIResponsesUsage(reply.at(['usage'])),
          producedText: () => '',
        }),
      });
    };
  },
};
