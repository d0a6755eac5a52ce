import { embeddingUsage } from '../../ir/embedding.js';
import { mapUpstreamModel } from '../../providers/map-upstream-model.js';
import { decodeGeminiEmbedReply } from '../../protocols/gemini/decode-embed-reply.js';
import { encodeGeminiBatchEmbedContentsRequest } from '../../protocols/gemini/encode-embed-request.js';
import { convertOpenAIEmbeddingsUsage } from '../../protocols/openai-embeddings/convert-openai-embeddings-usage.js';
import {
  decodeOpenAIEmbeddingsRequest,
  type DecodedOpenAIEmbeddingsRequest,
} from '../../protocols/openai-embeddings/decode-request.js';
import { encodeOpenAIEmbeddingsReply } from '../../protocols/openai-embeddings/encode-reply.js';
import { estimateOpenAIEmbeddingsInputTokens } from '../../protocols/openai-embeddings/estimate-input-tokens.js';
import { modelPrice, type RelayOperation } from '../relay-operation.js';
import { convertingClientErrors, readingUpstreamReply } from './conversion-errors.js';
import { jsonPlan, upstreamServes } from './json-plan.js';
import { exactTokens } from '../../billing/token-estimate.js';

/** Unknown input tokens: the relay bills the pre-charge's count of the input. Embeddings produce no output. */
const unreportedUsage = () => embeddingUsage({ inputTokens: undefined });

/**
 * `POST /v1/embeddings` (admin-api section 6; https://platform.openai.com/docs/api-reference/embeddings/create).
 * OpenAI-protocol channels get the body as it is (model mapped) and the reply comes back untouched;
 * Gemini channels get `batchEmbedContents` through the canonical form, and their vectors come back
 * in OpenAI's shape, as floats or base64 as the client asked. Billed by input tokens only: the
 * upstream's `prompt_tokens`, else the gateway's count of the input.
 */
export const embeddingsOperation: RelayOperation = {
  select: (candidates, model) =>
    candidates.filter(
      (channel) =>
        upstreamServes(channel, 'openai-embeddings', model) ||
        upstreamServes(channel, 'gemini-batch-embed-contents', model),
    ),
  isStream: () => false,
  billingPrice: modelPrice,
  preCharge: (body) => ({
    inputTokens: exactTokens(estimateOpenAIEmbeddingsInputTokens(body.input)),
    outputCap: 0,
    calls: 1,
  }),
  forwardedHeaders: [],
  wantsUsageEvents: () => false,
  createPlanner: (input) => {
    let decoded: DecodedOpenAIEmbeddingsRequest | undefined;
    const decode = () =>
      (decoded ??= convertingClientErrors(() =>
        decodeOpenAIEmbeddingsRequest(input.body, { losses: input.losses }),
      ));
    return async (channel) => {
      const upstreamModel = mapUpstreamModel(channel, input.model);
      if (upstreamServes(channel, 'openai-embeddings', input.model))
        return jsonPlan({
          mode: 'passthrough',
          endpoint: 'openai-embeddings',
          upstreamModel,
          body: { ...input.body, model: upstreamModel },
          reply: (upstreamBody, reply) => ({
            body: upstreamBody,
            usage: convertOpenAIEmbeddingsUsage(reply.at(['usage'])) ?? unreportedUsage(),
            producedText: () => '',
          }),
        });
      if (!upstreamServes(channel, 'gemini-batch-embed-contents', input.model)) return undefined;
      const { request, encodingFormat } = decode();
      const body = convertingClientErrors(() =>
        encodeGeminiBatchEmbedContentsRequest({ ...request, model: upstreamModel }, { losses: input.losses }),
      );
      return jsonPlan({
        mode: 'convert',
        endpoint: 'gemini-batch-embed-contents',
        upstreamModel,
        body,
        reply: (_upstreamBody, upstreamReply) => {
          const reply = readingUpstreamReply(() => decodeGeminiEmbedReply(upstreamReply.value()));
          const usage = reply.usage ?? unreportedUsage();
          const encoded = encodeOpenAIEmbeddingsReply(reply, {
            model: input.requestedModel,
            encodingFormat,
            inputTokens: usage.inputTokens ?? input.inputTokens.count(),
          });
          return { body: JSON.stringify(encoded), usage, producedText: () => '' };
        },
      });
    };
  },
};
