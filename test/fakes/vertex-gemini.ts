import {
  asRecord,
  FAKE_CREATED_AT,
  isRecord,
  sseEvent,
  type FakeReply,
  type RecordedRequest,
  type ReplyContent,
  type RequestProblem,
} from './fake-upstream.js';
import { geminiGenerateReply } from './gemini-generate-reply.js';
import { validateGeminiRequest } from './validate-gemini-request.js';

const GEMINI_DOCS = 'https://cloud.google.com/vertex-ai/generative-ai/docs/model-reference/gemini';
/** Vertex answers with microseconds. */
const CREATE_TIME = new Date(FAKE_CREATED_AT * 1000).toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');

/**
 * What Gemini on Vertex AI refuses: the Gemini API's rules (`validate-gemini-request.ts`), and
 * `role` is required on every content, a lone one included, where the Gemini API lets a lone
 * content leave it out (https://cloud.google.com/vertex-ai/generative-ai/docs/reference/rest/v1/Content).
 */
export function validateVertexGeminiRequest(body: unknown, model: string): RequestProblem | undefined {
  const contents = isRecord(body) ? body.contents : undefined;
  if (
    Array.isArray(contents) &&
    contents.some((content) => isRecord(content) && content.role !== 'user' && content.role !== 'model')
  )
    return {
      message: `Unable to submit request because Please use a valid role: user, model.. Learn more: ${GEMINI_DOCS}`,
    };
  return validateGeminiRequest(body, { model });
}

/**
 * The Gemini API's reply, with what Vertex adds to every response: `createTime` and
 * `usageMetadata.trafficType` (https://cloud.google.com/vertex-ai/generative-ai/docs/reference/rest/v1/GenerateContentResponse).
 */
export function vertexGeminiReply(input: {
  request: RecordedRequest;
  content: ReplyContent;
  nextId: (prefix: string) => string;
  model: string;
  stream: boolean;
}): FakeReply {
  const reply = geminiGenerateReply(input);
  if (reply.kind === 'json') return { kind: 'json', body: decorate(reply.body) };
  if (reply.kind !== 'sse') return reply;
  const events = reply.events.map((event) =>
    sseEvent(decorate(JSON.parse(event.replace(/^data: /, '')) as unknown), { separator: '\r\n\r\n' }),
  );
  return { kind: 'sse', events };
}

function decorate(response: unknown): Record<string, unknown> {
  const body = asRecord(response);
  const usage = isRecord(body.usageMetadata)
    ? { ...body.usageMetadata, trafficType: 'ON_DEMAND' }
    : undefined;
  return { ...body, ...(usage && { usageMetadata: usage }), createTime: CREATE_TIME };
}

/** Gemini's mid-stream error: a data chunk holding the usual error body. */
export function vertexGeminiStreamError(message: string): string {
  return sseEvent({ error: { code: 503, message, status: 'UNAVAILABLE' } }, { separator: '\r\n\r\n' });
}
