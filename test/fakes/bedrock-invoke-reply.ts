import { anthropicMessagesReply } from './anthropic-messages-reply.js';
import { chunkFrame } from './bedrock-event-stream.js';
import { asRecord, type FakeReply, type RecordedRequest, type ReplyContent } from './fake-upstream.js';

/**
 * Claude on `/model/{modelId}/invoke`: the Anthropic `Message` JSON as the Messages API answers;
 * on `/invoke-with-response-stream`: each Anthropic stream event, base64, in a `chunk` event
 * (https://docs.aws.amazon.com/bedrock/latest/userguide/model-parameters-anthropic-claude-messages-request-response.html).
 * Bedrock adds its invocation metrics to the `message_stop` event.
 */
export function bedrockInvokeReply(options: {
  request: RecordedRequest;
  content: ReplyContent;
  nextId: (prefix: string) => string;
  modelId: string;
  stream: boolean;
}): FakeReply {
  const body = { ...asRecord(options.request.body), model: options.modelId, stream: options.stream };
  const reply = anthropicMessagesReply({ ...options.request, body }, options.content, options.nextId);
  if (reply.kind !== 'sse') return reply;
  const frames = reply.events.map((event) => chunkFrame(withMetrics(dataOf(event), options.content)));
  return { kind: 'event-stream', frames, headers: { 'x-amzn-bedrock-content-type': 'application/json' } };
}

/** The `data:` text of one `event: ...\ndata: ...\n\n` event. */
function dataOf(event: string): string {
  const line = event.split('\n').find((text) => text.startsWith('data: '));
  return line?.slice('data: '.length) ?? '{}';
}

function withMetrics(json: string, content: ReplyContent): string {
  const event = JSON.parse(json) as Record<string, unknown>;
  if (event.type !== 'message_stop') return json;
  return JSON.stringify({
    ...event,
    'amazon-bedrock-invocationMetrics': {
      inputTokenCount: content.usage.inputTokens,
      outputTokenCount: content.usage.outputTokens,
      invocationLatency: 420,
      firstByteLatency: 120,
    },
  });
}
