import type { TextPart } from '../../ir/content.js';
import type { LossLog } from '../../ir/loss.js';
import type { CanonicalReply } from '../../ir/reply.js';
import { toOpenAIResponsesUsage } from './convert-openai-responses-usage.js';
import { isJsonObject, asString } from '../wire-json.js';
import { toOpenAIResponsesEnding } from './map-openai-responses-finish-reason.js';
import { generatedImageItem } from './generated-image-item.js';
import { encodeReasoningItem, encryptedContentForClient, toolCallSignatureItem } from './reasoning-item.js';
import { buildResponseObject, functionCallItem, messageItem, outputText } from './response-object.js';
import { deriveItemId, toResponseId } from './responses-ids.js';
import { partDetail, PROTOCOL, readRawValue } from './responses-extensions.js';
import type {
  ResponsesOutputContent,
  ResponsesOutputItem,
  ResponsesOutputMessage,
  ResponsesResponse,
} from './wire-types.js';

/**
 * A canonical reply as a Responses response object (client-api 2.3): text in `message` items,
 * reasoning in `reasoning` items (summary text; the signature or redacted data, marked with its
 * issuer unless OpenAI's, as `encrypted_content`), tool calls in `function_call` items, each
 * followed by a reasoning item holding its signature when it has one, a generated image in an
 * `image_generation_call` item; the finish reason becomes the status (`incomplete` with
 * `incomplete_details` for length and content filter). Ids are the upstream's when they are
 * Responses ids, else derived from the reply id.
 */
export function encodeOpenAIResponsesReply(reply: CanonicalReply, losses: LossLog): ResponsesResponse {
  const id = toResponseId(reply.id);
  const output: ResponsesOutputItem[] = [];
  const itemId = (prefix: 'msg_' | 'fc_' | 'rs_' | 'ig_') =>
    deriveItemId({ prefix, responseId: id, outputIndex: output.length });
  let message:
    | { key: string | undefined; item: ResponsesOutputMessage; content: ResponsesOutputMessage['content'] }
    | undefined;
  // Text joins the open message item unless it recorded a different item of its own.
  const messageFor = (recorded: string | undefined) => {
    if (message && (recorded === undefined || recorded === message.key)) return message;
    const content: ResponsesOutputMessage['content'] = [];
    message = {
      key: recorded,
      item: messageItem({ id: recorded ?? itemId('msg_'), status: 'completed', content }),
      content,
    };
    output.push(message.item);
    return message;
  };

  reply.parts.forEach((part, index) => {
    const path = `parts[${index}]`;
    const type = part.type;
    switch (type) {
      case 'text':
        messageFor(recordedId(part)).content.push(encodeText(part));
        return;
      case 'reasoning':
        message = undefined;
        output.push(
          encodeReasoningItem({
            part,
            fallbackId: itemId('rs_'),
            encryptedContent: encryptedContentForClient(part, path, losses),
          }),
        );
        return;
      case 'tool-call':
        message = undefined;
        output.push(
          functionCallItem({
            id: itemId('fc_'),
            status: 'completed',
            callId: part.id,
            name: part.name,
            arguments: part.arguments,
          }),
        );
        if (part.signature !== undefined) output.push(toolCallSignatureItem(itemId('rs_'), part.signature));
        return;
      case 'raw': {
        const raw = part.protocol === PROTOCOL ? readRawValue(part.value) : undefined;
        if (!raw) losses.dropped(path, `a raw ${part.protocol} block has no Responses form`);
        else if ('item' in raw) {
          message = undefined;
          output.push(raw.item);
        } else messageFor(undefined).content.push(raw.content);
        return;
      }
      case 'file': {
        const item = generatedImageItem(part, { id: itemId('ig_'), path, losses });
        if (!item) return;
        message = undefined;
        output.push(item);
        return;
      }
      case 'tool-result':
        losses.dropped(path, `a ${type} part has no place in a Responses reply`);
        return;
      default: {
        const never: never = type;
        return never;
      }
    }
  });

  const kept = reply.extensions[PROTOCOL];
  return buildResponseObject({
    id,
    model: reply.model,
    created: reply.created,
    ending: toOpenAIResponsesEnding(reply.finishReason),
    output,
    usage: toOpenAIResponsesUsage({ usage: reply.usage, losses, path: 'usage' }),
    ...(kept && { kept }),
  });
}

/** The message item id a text part recorded, when it came from a Responses reply. */
function recordedId(part: TextPart): string | undefined {
  const item = partDetail(part.extensions)?.item;
  return isJsonObject(item) ? asString(item.id) : undefined;
}

function encodeText(part: TextPart): ResponsesOutputContent {
  const detail = partDetail(part.extensions);
  if (detail?.refusal === true) return { type: 'refusal', refusal: part.text };
  const content = outputText(part.text);
  if (Array.isArray(detail?.annotations)) content.annotations = detail.annotations;
  if (Array.isArray(detail?.logprobs)) content.logprobs = detail.logprobs;
  return content;
}
