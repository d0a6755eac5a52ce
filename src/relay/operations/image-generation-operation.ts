import { estimatePromptTokens } from '../../billing/estimate-prompt-tokens.js';
import { GatewayError } from '../../errors/gateway-error.js';
import type { ImageGenerationReply, ImageGenerationRequest } from '../../ir/image-generation.js';
import { emptyUsage } from '../../ir/usage.js';
import { decodeImagenReply } from '../../protocols/gemini/decode-imagen-reply.js';
import { encodeImagenRequest } from '../../protocols/gemini/encode-imagen-request.js';
import { convertOpenAIImagesUsage } from '../../protocols/openai-images/convert-openai-images-usage.js';
import { decodeOpenAIImagesReply } from '../../protocols/openai-images/decode-reply.js';
import { decodeOpenAIImagesRequest } from '../../protocols/openai-images/decode-request.js';
import { encodeOpenAIImagesReply } from '../../protocols/openai-images/encode-reply.js';
import { prepareOpenAIImagesPassthrough } from '../../protocols/openai-images/passthrough.js';
import { mapUpstreamModel } from '../../providers/map-upstream-model.js';
import type { RoutableChannel } from '../../routing/routing-catalog.js';
import type { PlannerInput } from '../plan.js';
import { modelPrice, type RelayOperation } from '../relay-operation.js';
import type { ReplyTransform } from '../transforms.js';
import { convertingClientErrors } from './conversion-errors.js';
import { jsonPlan, upstreamServes } from './json-plan.js';

/**
 * `POST /v1/images/generations` (client-api 4.6). OpenAI-protocol channels get the body as it is
 * (model mapped, never streamed) and the reply comes back as it is. Gemini channels take Imagen
 * models only, through Imagen's `predict` (https://ai.google.dev/gemini-api/docs/imagen), with the
 * reply converted back to an OpenAI `ImagesResponse`. A request is billed by the token usage the
 * upstream reports (GPT image models), else at `per_request` for each image returned.
 */
export const imageGenerationOperation: RelayOperation = {
  select(candidates, model) {
    const suitable = candidates.filter(
      (channel) =>
        channel.endpointTypesFor(model).includes('image-generation') &&
        (upstreamServes(channel, 'openai-images', model) ||
          (upstreamServes(channel, 'gemini-predict', model) &&
            isImagenModel(mapUpstreamModel(channel, model)))),
    );
    // Gemini's own image models (`gemini-2.5-flash-image`) generate through generateContent,
    // which this endpoint does not convert to; the client must hear so before anything is reserved.
    if (
      suitable.length === 0 &&
      candidates.some(
        (channel) =>
          upstreamServes(channel, 'gemini-predict', model) &&
          !isImagenModel(mapUpstreamModel(channel, model)),
      )
    )
      throw new GatewayError('image_model_not_supported');
    return suitable;
  },
  isStream: () => false,
  billingPrice: modelPrice,
  preCharge: (body, settings) => {
    const images = typeof body.n === 'number' ? body.n : 1;
    // Each image may cost up to the output cap in tokens, or one `per_request` call.
    return {
      inputTokens: estimatePromptTokens({ prompt: body.prompt }),
      outputCap: images * settings.default_max_tokens,
      calls: images,
    };
  },
  forwardedHeaders: [],
  wantsUsageEvents: () => false,
  createPlanner(input) {
    const passthroughBody = once(() => prepareOpenAIImagesPassthrough(input.body, { losses: input.losses }));
    const imagen = once(() => {
      const request = decodeRequest(input);
      return { request, body: encodeImagenRequest(request, { losses: input.losses }) };
    });
    return async (channel: RoutableChannel) => {
      const upstreamModel = mapUpstreamModel(channel, input.model);
      if (upstreamServes(channel, 'openai-images', input.model))
        return jsonPlan({
          mode: 'passthrough',
          endpoint: 'openai-images',
          upstreamModel,
          body: { ...passthroughBody(), model: upstreamModel },
          reply: openAIImagesReply,
        });
      if (upstreamServes(channel, 'gemini-predict', input.model) && isImagenModel(upstreamModel)) {
        const { request, body } = imagen();
        return jsonPlan({
          mode: 'convert',
          endpoint: 'gemini-predict',
          upstreamModel,
          body: { ...body },
          reply: imagenReply({ input, request }),
        });
      }
      return undefined;
    };
  },
};

/** Imagen models answer `predict`; Gemini's own image models answer generateContent only. */
function isImagenModel(upstreamModel: string): boolean {
  return upstreamModel.replace(/^models\//, '').startsWith('imagen-');
}

/**
 * The reply as it is, billed by its token usage when it reports one (read alone: the images it
 * holds, megabytes of base64, are not parsed), else per image returned.
 */
const openAIImagesReply: ReplyTransform = (upstreamBody, upstreamReply) => {
  const usage = convertOpenAIImagesUsage(upstreamReply.at(['usage']));
  if (usage) return { body: upstreamBody, producedText: () => '', usage, calls: 0 };
  const reply = decodeOpenAIImagesReply(upstreamReply.value());
  return { body: upstreamBody, producedText: () => '', ...billing(reply) };
};

function imagenReply(options: { input: PlannerInput; request: ImageGenerationRequest }): ReplyTransform {
  const { input, request } = options;
  return (_upstreamBody, upstreamReply) => {
    const reply = decodeImagenReply(upstreamReply.value(), input.losses);
    const body = encodeOpenAIImagesReply(reply, {
      losses: input.losses,
      delivery: request.delivery,
      now: Math.floor(Date.now() / 1000),
    });
    return { body: JSON.stringify(body), producedText: () => '', ...billing(reply) };
  };
}

/** Admin-api section 3 rule 1: reported tokens at the token prices, else `per_request` per image. */
function billing(reply: ImageGenerationReply): Pick<ReturnType<ReplyTransform>, 'usage' | 'calls'> {
  if (reply.usage) return { usage: reply.usage, calls: 0 };
  return { usage: { ...emptyUsage(), inputTokens: 0, outputTokens: 0 }, calls: reply.images.length };
}

function decodeRequest(input: PlannerInput): ImageGenerationRequest {
  return convertingClientErrors(() => decodeOpenAIImagesRequest(input.body, { losses: input.losses }));
}

/** The first call's result, for every call: losses are recorded once however many channels are tried. */
function once<T>(compute: () => T): () => T {
  let result: { value: T } | undefined;
  return () => (result ??= { value: compute() }).value;
}
