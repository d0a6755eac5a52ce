import type { LossLog } from '../../ir/loss.js';
import type { CanonicalReply } from '../../ir/reply.js';
import { emptyUsage } from '../../ir/usage.js';
import { isJsonObject, withoutKeys } from '../wire-json.js';
import { BEDROCK_CONVERSE } from './bedrock-converse-extensions.js';
import { convertConverseUsage } from './convert-bedrock-converse-usage.js';
import { converseReplyId } from './converse-response-id.js';
import { decodeContentBlocks } from './decode-content-block.js';
import { mapConverseStopReason } from './map-bedrock-converse-stop-reason.js';
import { converseResponseSchema, type ConverseResponseRead } from './wire-schemas.js';

/** Members of `ConverseResponse` with a canonical meaning; the rest (`metrics`, `trace`...) is kept. */
const KNOWN_FIELDS = ['output', 'stopReason', 'usage'];

/**
 * A `ConverseResponse` (https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_Converse.html#API_runtime_Converse_ResponseSyntax)
 * -> canonical reply. Lenient: what is missing stays empty or unknown, unknown blocks are kept
 * raw. Converse names neither the reply nor the model in the body: the id is derived from the
 * body (see `converseReplyId`) and the model is empty; the relay states the model the client asked for.
 */
export function decodeReply(body: unknown, losses: LossLog): CanonicalReply {
  const read = converseResponseSchema.safeParse(body);
  const response: ConverseResponseRead = read.success ? read.data : {};
  const parts = decodeContentBlocks(response.output?.message?.content ?? [], {
    path: 'output.message.content',
    losses,
    strict: false,
  });
  const rest = isJsonObject(body) ? withoutKeys(body, KNOWN_FIELDS) : undefined;
  return {
    id: converseReplyId(body),
    model: '',
    created: Math.floor(Date.now() / 1000),
    parts,
    finishReason: mapConverseStopReason(response.stopReason),
    usage: convertConverseUsage(response.usage) ?? { ...emptyUsage(), raw: response.usage },
    extensions: rest ? { [BEDROCK_CONVERSE]: { body: rest } } : {},
  };
}
