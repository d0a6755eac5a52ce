import { createHash } from 'node:crypto';
import { asString, isJsonObject, type JsonObject } from '../wire-json.js';

/** `responseId`, `modelVersion` and `createTime` of a GenerateContentResponse. */
export interface ResponseIdentity {
  id: string;
  model: string;
  created: number;
}

/**
 * Who a response is: its `responseId` (or, when missing, an id derived from the body so the same
 * body always gets the same one), `modelVersion`, and `createTime` in Unix seconds (Vertex sends
 * it; otherwise the time of reading).
 */
export function readResponseIdentity(body: unknown): ResponseIdentity {
  const response: JsonObject = isJsonObject(body) ? body : {};
  const responseId = asString(response.responseId);
  const id =
    responseId && responseId.length > 0
      ? responseId
      : `gen-${createHash('sha256')
          .update(JSON.stringify(body) ?? '')
          .digest('hex')
          .slice(0, 24)}`;
  const createTime = asString(response.createTime);
  const parsed = createTime === undefined ? Number.NaN : Date.parse(createTime);
  return {
    id,
    model: asString(response.modelVersion) ?? '',
    created: Number.isFinite(parsed) ? Math.floor(parsed / 1000) : Math.floor(Date.now() / 1000),
  };
}
