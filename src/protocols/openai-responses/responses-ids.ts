import { createHash } from 'node:crypto';

/** Responses ids are a prefix and hex (`resp_68af...`, `msg_...`, `fc_...`, `rs_...`, `ig_...`). */
const RESPONSE_ID = /^resp_[A-Za-z0-9]+$/;

function digest(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 48);
}

/** The upstream's id when it already is a Responses id, else one derived from it deterministically. */
export function toResponseId(id: string): string {
  return RESPONSE_ID.test(id) ? id : `resp_${digest(id)}`;
}

/** A deterministic output item id for the item at `outputIndex` of a response. */
export function deriveItemId(options: {
  prefix: 'msg_' | 'fc_' | 'rs_' | 'ig_';
  responseId: string;
  outputIndex: number;
}): string {
  return `${options.prefix}${digest(`${options.responseId}:${options.outputIndex}`)}`;
}

/**
 * The id of a reasoning item whose OpenAI `encrypted_content` reached the gateway through another
 * protocol, which kept the token but not the item id: derived from the token, so the same history
 * always gives the same id.
 */
export function derivedReasoningId(encryptedContent: string): string {
  return `rs_${digest(encryptedContent)}`;
}
