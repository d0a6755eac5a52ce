import { anthropicMessagesReply } from './anthropic-messages-reply.js';
import {
  isRecord,
  sseEvent,
  type FakeReply,
  type RecordedRequest,
  type ReplyContent,
  type RequestProblem,
} from './fake-upstream.js';
import { validateAnthropicRequest } from './validate-anthropic-request.js';

export const VERTEX_ANTHROPIC_VERSION = 'vertex-2023-10-16';
/**
 * Versions the body may name: Vertex's own, and the dated API version that @anthropic-ai/sdk 1.x
 * sends in its `anthropic-version` header, which @anthropic-ai/vertex-sdk 1.x copies into the body.
 */
const acceptedVersions = [VERTEX_ANTHROPIC_VERSION, '2026-10-21'];

/**
 * What Claude on Vertex AI refuses (https://cloud.google.com/vertex-ai/generative-ai/docs/partner-models/claude/use-claude):
 * the Anthropic messages body, but the model is the path's, so a `model` member is an extra input,
 * and the API version travels in the body as `anthropic_version` (`"vertex-2023-10-16"`). Refusals
 * are Anthropic's, in Anthropic's words.
 */
export function validateVertexClaudeRequest(body: unknown, model: string): RequestProblem | undefined {
  if (!isRecord(body)) return validateAnthropicRequest(body);
  const { anthropic_version: version, ...rest } = body;
  if (rest.model !== undefined) return { message: 'model: Extra inputs are not permitted' };
  if (version === undefined) return { message: 'anthropic_version: Field required' };
  if (typeof version !== 'string' || !acceptedVersions.includes(version))
    return {
      message: `anthropic_version: Input should be ${acceptedVersions.map((v) => `'${v}'`).join(' or ')}`,
    };
  return validateAnthropicRequest({ ...rest, model });
}

/**
 * The Anthropic API's reply, byte for byte in shape, for the path's model: ids are `msg_vrtx_...`,
 * `model` is the model's Anthropic name (`claude-sonnet-4@20250514` -> `claude-sonnet-4-20250514`),
 * and a stream carries Vertex's own `vertex_event` after `message_start` unless told not to
 * (clients are expected to skip event types they do not know).
 */
export function vertexClaudeReply(input: {
  request: RecordedRequest;
  content: ReplyContent;
  nextId: (prefix: string) => string;
  model: string;
  vertexEvents: boolean;
}): FakeReply {
  const body = isRecord(input.request.body) ? input.request.body : {};
  const request = { ...input.request, body: { ...body, model: input.model.replace('@', '-') } };
  const nextId = (prefix: string) => input.nextId(prefix === 'msg_' ? 'msg_vrtx_' : prefix);
  const reply = anthropicMessagesReply(request, input.content, nextId);
  if (reply.kind !== 'sse' || !input.vertexEvents) return reply;
  const [start, ...rest] = reply.events;
  const vertexEvent = sseEvent({ type: 'vertex_event' }, { event: 'vertex_event' });
  return { kind: 'sse', events: start === undefined ? [] : [start, vertexEvent, ...rest] };
}

/** Anthropic's stream error event (https://docs.anthropic.com/en/docs/build-with-claude/streaming#error-events). */
export function vertexClaudeStreamError(message: string): string {
  return sseEvent({ type: 'error', error: { type: 'overloaded_error', message } }, { event: 'error' });
}
