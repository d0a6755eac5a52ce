import { randomUUID } from 'node:crypto';

/**
 * An `error` server event of the gateway's own, in the Realtime API's shape
 * (https://platform.openai.com/docs/api-reference/realtime-server-events/error): `event_id` names
 * the client event it answers, when it had one.
 */
export function realtimeErrorEvent(error: {
  code: string;
  message: string;
  param?: string | null;
  clientEventId?: string | undefined;
}): string {
  return JSON.stringify({
    type: 'error',
    event_id: `event_${randomUUID().replaceAll('-', '').slice(0, 22)}`,
    error: {
      type: 'invalid_request_error',
      code: error.code,
      message: error.message,
      param: error.param ?? null,
      event_id: error.clientEventId ?? null,
    },
  });
}
