import type { LossLog } from '../../ir/loss.js';
import { setOwnMember, type JsonObject } from '../wire-json.js';

/**
 * The body for an OpenAI-protocol upstream of image generation: the client's, as it is, but for
 * streaming (the relay sets the upstream's model name). Images are not streamed by the gateway,
 * so `stream` and `partial_images` (https://platform.openai.com/docs/api-reference/images-streaming)
 * are taken out, and recorded, so that the upstream answers one JSON `ImagesResponse`.
 */
export function prepareOpenAIImagesPassthrough(body: JsonObject, options: { losses: LossLog }): JsonObject {
  const prepared: JsonObject = {};
  for (const name of Object.keys(body)) {
    if (name === 'stream' || name === 'partial_images') continue;
    setOwnMember(prepared, name, body[name]);
  }
  if (body.stream !== undefined && body.stream !== null && body.stream !== false)
    options.losses.dropped('stream', 'images are not streamed; the reply comes whole');
  if (body.partial_images !== undefined && body.partial_images !== null)
    options.losses.dropped('partial_images', 'images are not streamed; no partial images are sent');
  return prepared;
}
