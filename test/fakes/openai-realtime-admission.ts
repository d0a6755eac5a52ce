import type { RecordedRequest } from './fake-upstream.js';

/**
 * Whether a Realtime WebSocket may open a session. The API answers the upgrade with 101 whatever
 * the credentials or the model, then refuses with one `error` event and closes at once: 3000 for
 * authentication, 4000 for the request, the close reason naming `type.code`.
 * https://platform.openai.com/docs/guides/realtime-websocket
 */
export interface RealtimeRefusal {
  code: string | null;
  message: string;
  closeCode: 3000 | 4000;
}

/** The prefix of the subprotocol a browser sends its key in; it also sends `realtime`. */
export const REALTIME_KEY_PROTOCOL = 'openai-insecure-api-key.';

export function realtimeAdmission(
  request: RecordedRequest,
  isValidKey: (presented: unknown) => boolean,
): RealtimeRefusal | undefined {
  const key = presentedKey(request);
  if (key === undefined)
    return { code: null, message: 'Missing bearer or basic authentication in header', closeCode: 3000 };
  if (!isValidKey(key))
    return {
      code: 'invalid_api_key',
      message: `Incorrect API key provided: ${key}. You can find your API key at https://platform.openai.com/account/api-keys.`,
      closeCode: 3000,
    };
  if (/realtime=v1/.test(String(request.headers['openai-beta'] ?? '')))
    return {
      code: 'beta_api_shape_disabled',
      message: "The Realtime beta API shape is disabled; remove the 'OpenAI-Beta: realtime=v1' header.",
      closeCode: 4000,
    };
  const model = request.query.get('model');
  if (!model)
    return {
      code: 'missing_model',
      message:
        'You must provide a model parameter, for example wss://api.openai.com/v1/realtime?model=gpt-realtime-1.5',
      closeCode: 4000,
    };
  if (!isRealtimeModel(model))
    return {
      code: 'invalid_model',
      message: `Model "${model}" is not supported in realtime mode.`,
      closeCode: 4000,
    };
  return undefined;
}

/** The subprotocols the client offered, in order. */
export function offeredProtocols(request: RecordedRequest): string[] {
  return String(request.headers['sec-websocket-protocol'] ?? '')
    .split(',')
    .map((protocol) => protocol.trim())
    .filter(Boolean);
}

/** The `model` values of `RealtimeSession` in openai/resources/realtime, by family. */
function isRealtimeModel(model: string): boolean {
  return /^gpt-(realtime|4o-realtime-preview|4o-mini-realtime-preview|audio)/.test(model);
}

/** `Authorization: Bearer <key>`, else a browser's `openai-insecure-api-key.<key>` subprotocol. */
function presentedKey(request: RecordedRequest): string | undefined {
  const bearer = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1];
  if (bearer !== undefined) return bearer;
  const offered = offeredProtocols(request).find((protocol) => protocol.startsWith(REALTIME_KEY_PROTOCOL));
  return offered?.slice(REALTIME_KEY_PROTOCOL.length);
}
