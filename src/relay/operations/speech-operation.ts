import { exactTokens } from '../../billing/token-estimate.js';
import { estimateTextTokens } from '../../billing/estimate-tokens.js';
import { mapUpstreamModel } from '../../providers/map-upstream-model.js';
import { countCharacters } from '../../protocols/openai-audio/check-speech-request.js';
import { speechStream } from '../../protocols/openai-audio/speech-stream.js';
import { modelPrice, type RelayOperation } from '../relay-operation.js';
import { upstreamServes } from './json-plan.js';

/**
 * `POST /v1/audio/speech` (admin-api section 14): to OpenAI-protocol channels that declare
 * `audio-speech`, the body as it is (model mapped); the audio streams back as it arrives, with the
 * upstream's content type. Reserved and billed by the characters of `input` at
 * `per_million_characters`, or by the tokens the upstream reports (`stream_format: "sse"`).
 */
export const speechOperation: RelayOperation = {
  select: (candidates, model) =>
    candidates.filter((channel) => upstreamServes(channel, 'openai-audio-speech', model)),
  isStream: () => true,
  billingPrice: modelPrice,
  preCharge: (body) => {
    const input = body.input as string;
    return {
      inputTokens: exactTokens(estimateTextTokens(input)),
      outputCap: 0,
      calls: 1,
      characters: countCharacters(input),
    };
  },
  forwardedHeaders: [],
  wantsUsageEvents: () => false,
  createPlanner: (input) => {
    const characters = countCharacters(input.body.input as string);
    const sse = input.body.stream_format === 'sse';
    return async (channel) => {
      if (!upstreamServes(channel, 'openai-audio-speech', input.model)) return undefined;
      const upstreamModel = mapUpstreamModel(channel, input.model);
      const body = upstreamModel === input.body.model ? input.body : { ...input.body, model: upstreamModel };
      return {
        mode: 'passthrough',
        endpoint: 'openai-audio-speech',
        upstreamModel,
        body,
        bodyBytes: body === input.body ? input.bodyBytes : undefined,
        extraHeaders: {},
        query: '',
        reply: () => {
          throw new Error('speech is always relayed as a stream');
        },
        stream: () => speechStream({ characters, sse }),
        upstreamContentType: true,
      };
    };
  },
};
