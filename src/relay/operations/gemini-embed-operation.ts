import type { EmbeddingReply, EmbeddingRequest } from '../../ir/embedding.js';
import { embeddingUsage } from '../../ir/embedding.js';
import type { LossLog } from '../../ir/loss.js';
import type { UpstreamEndpoint } from '../../providers/provider-descriptor.js';
import { mapUpstreamModel } from '../../providers/map-upstream-model.js';
import {
  decodeGeminiBatchEmbedContentsRequest,
  decodeGeminiEmbedContentRequest,
} from '../../protocols/gemini/decode-embed-request.js';
import {
  encodeGeminiBatchEmbedContentsReply,
  encodeGeminiEmbedContentReply,
} from '../../protocols/gemini/encode-embed-reply.js';
import {
  estimateGeminiBatchEmbedContentsTokens,
  estimateGeminiEmbedContentTokens,
} from '../../protocols/gemini/estimate-embed-input-tokens.js';
import { prepareGeminiEmbedPassthrough } from '../../protocols/gemini/passthrough-embed-request.js';
import { decodeOpenAIEmbeddingsReply } from '../../protocols/openai-embeddings/decode-reply.js';
import { encodeOpenAIEmbeddingsRequest } from '../../protocols/openai-embeddings/encode-request.js';
import type { JsonObject } from '../../protocols/wire-json.js';
import { modelPrice, type RelayOperation } from '../relay-operation.js';
import { convertingClientErrors, readingUpstreamReply } from './conversion-errors.js';
import { jsonPlan, upstreamServes } from './json-plan.js';
import { exactTokens } from '../../billing/token-estimate.js';

/** What differs between Gemini's two embedding methods. */
interface GeminiEmbedMethod {
  endpoint: Extract<UpstreamEndpoint, 'gemini-embed-content' | 'gemini-batch-embed-contents'>;
  estimateTokens(body: JsonObject): number;
  decodeRequest(body: JsonObject, context: { losses: LossLog }): EmbeddingRequest;
  encodeReply(reply: EmbeddingReply): Record<string, unknown>;
}

/**
 * A Gemini embedding method (admin-api section 6; https://ai.google.dev/api/embeddings). Gemini
 * channels get the client's body as it is, every model it names mapped, and the reply comes back
 * untouched; OpenAI-protocol channels get `/v1/embeddings` through the canonical form (floats), and
 * their vectors come back in the method's shape. Billed by input tokens only: the upstream's count
 * where it reports one (OpenAI does, Gemini does not), else the gateway's count of the input.
 */
function geminiEmbedOperation(method: GeminiEmbedMethod): RelayOperation {
  return {
    select: (candidates, model) =>
      candidates.filter(
        (channel) =>
          upstreamServes(channel, method.endpoint, model) ||
          upstreamServes(channel, 'openai-embeddings', model),
      ),
    isStream: () => false,
    billingPrice: modelPrice,
    preCharge: (body) => ({
      inputTokens: exactTokens(method.estimateTokens(body)),
      outputCap: 0,
      calls: 1,
    }),
    forwardedHeaders: [],
    wantsUsageEvents: () => false,
    createPlanner: (input) => {
      let decoded: EmbeddingRequest | undefined;
      const decode = () =>
        (decoded ??= convertingClientErrors(() =>
          method.decodeRequest(input.body, { losses: input.losses }),
        ));
      return async (channel) => {
        const upstreamModel = mapUpstreamModel(channel, input.model);
        if (upstreamServes(channel, method.endpoint, input.model))
          return jsonPlan({
            mode: 'passthrough',
            endpoint: method.endpoint,
            upstreamModel,
            body: prepareGeminiEmbedPassthrough(input.body, { upstreamModel }),
            reply: (upstreamBody) => ({
              body: upstreamBody,
              usage: embeddingUsage({ inputTokens: undefined }),
              producedText: () => '',
            }),
          });
        if (!upstreamServes(channel, 'openai-embeddings', input.model)) return undefined;
        const body = convertingClientErrors(() =>
          encodeOpenAIEmbeddingsRequest({ ...decode(), model: upstreamModel }, { losses: input.losses }),
        );
        return jsonPlan({
          mode: 'convert',
          endpoint: 'openai-embeddings',
          upstreamModel,
          body,
          reply: (_upstreamBody, upstreamReply) => {
            const reply = readingUpstreamReply(() => decodeOpenAIEmbeddingsReply(upstreamReply.value()));
            return {
              body: JSON.stringify(method.encodeReply(reply)),
              usage: reply.usage ?? embeddingUsage({ inputTokens: undefined }),
              producedText: () => '',
            };
          },
        });
      };
    },
  };
}

/** `POST /v1beta/models/{model}:embedContent`: one content, one vector. */
export const geminiEmbedContentOperation = geminiEmbedOperation({
  endpoint: 'gemini-embed-content',
  estimateTokens: estimateGeminiEmbedContentTokens,
  decodeRequest: decodeGeminiEmbedContentRequest,
  encodeReply: encodeGeminiEmbedContentReply,
});

/** `POST /v1beta/models/{model}:batchEmbedContents`: a vector per item of `requests`. */
export const geminiBatchEmbedContentsOperation = geminiEmbedOperation({
  endpoint: 'gemini-batch-embed-contents',
  estimateTokens: estimateGeminiBatchEmbedContentsTokens,
  decodeRequest: decodeGeminiBatchEmbedContentsRequest,
  encodeReply: encodeGeminiBatchEmbedContentsReply,
});
