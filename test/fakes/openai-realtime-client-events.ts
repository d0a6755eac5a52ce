import { isRecord, type RequestProblem } from './fake-upstream.js';
import { invalidValue, missing, unknownParameter } from './openai-request-problems.js';

/**
 * What the Realtime API refuses in a client event, as `error` events carry it
 * (https://platform.openai.com/docs/api-reference/realtime-server-events/error); the socket stays open.
 */

/** The event types a WebSocket session takes, in the order the API lists them when refusing one. */
export const REALTIME_CLIENT_EVENT_TYPES = [
  'session.update',
  'session.close',
  'input_audio_buffer.append',
  'session.input_audio_buffer.append',
  'input_audio_buffer.commit',
  'input_audio_buffer.clear',
  'conversation.item.create',
  'conversation.item.truncate',
  'conversation.item.delete',
  'conversation.item.retrieve',
  'response.create',
  'response.cancel',
] as const;

export type RealtimeClientEventType = (typeof REALTIME_CLIENT_EVENT_TYPES)[number];

/** `RealtimeSessionCreateRequest` and `RealtimeTranscriptionSessionCreateRequest` in openai/resources/realtime. */
const SESSION_MEMBERS: Record<string, ReadonlySet<string>> = {
  realtime: new Set([
    'type',
    'audio',
    'include',
    'instructions',
    'max_output_tokens',
    'model',
    'output_modalities',
    'parallel_tool_calls',
    'prompt',
    'reasoning',
    'tool_choice',
    'tools',
    'tracing',
    'truncation',
  ]),
  transcription: new Set(['type', 'audio', 'include']),
};

export type RealtimeClientEvent = { type: RealtimeClientEventType } & Record<string, unknown>;

/** A parsed text frame as a client event, or the problem the API answers it with. */
export function readClientEvent(
  event: unknown,
): { event: RealtimeClientEvent } | { problem: RequestProblem } {
  const type = isRecord(event) ? event.type : undefined;
  if (!isRecord(event) || !REALTIME_CLIENT_EVENT_TYPES.includes(type as RealtimeClientEventType))
    return { problem: invalidValue('type', type, REALTIME_CLIENT_EVENT_TYPES) };
  const problem = checkClientEvent(event as RealtimeClientEvent);
  return problem ? { problem } : { event: event as RealtimeClientEvent };
}

function checkClientEvent(event: RealtimeClientEvent): RequestProblem | undefined {
  switch (event.type) {
    case 'session.update':
      return checkSession(event.session);
    case 'input_audio_buffer.append':
    case 'session.input_audio_buffer.append':
      return typeof event.audio === 'string' ? undefined : missing('audio');
    case 'conversation.item.create':
      return isRecord(event.item) ? undefined : missing('item');
    case 'conversation.item.delete':
    case 'conversation.item.retrieve':
    case 'conversation.item.truncate':
      return typeof event.item_id === 'string' ? undefined : missing('item_id');
    case 'response.create':
      return event.response === undefined || isRecord(event.response) ? undefined : missing('response');
    case 'session.close':
    case 'input_audio_buffer.commit':
    case 'input_audio_buffer.clear':
    case 'response.cancel':
      return undefined;
    default: {
      const unexpected: never = event.type;
      return invalidValue('type', unexpected, REALTIME_CLIENT_EVENT_TYPES);
    }
  }
}

/** The GA API needs the session's `type` and refuses members that type does not have. */
function checkSession(session: unknown): RequestProblem | undefined {
  if (!isRecord(session)) return missing('session');
  if (session.type === undefined) return missing('session.type');
  const members = SESSION_MEMBERS[String(session.type)];
  if (!members) return invalidValue('session.type', session.type, Object.keys(SESSION_MEMBERS));
  const unknown = Object.keys(session).find((name) => !members.has(name));
  return unknown === undefined ? undefined : unknownParameter(`session.${unknown}`);
}
