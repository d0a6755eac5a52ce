import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { parseJson } from '../api/parse-json';
import { isRecord, relayError, relayFetch, toRelayError } from './relay-fetch';

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

/** The usage the stream's last chunk reports (`stream_options.include_usage`). */
export interface StreamUsage {
  promptTokens: number;
  completionTokens: number;
}

export interface StreamedAnswer {
  /** `X-Gateway-Request-Id`: names the usage record, and so the cost, of this request. */
  requestId: string | null;
  usage: StreamUsage | undefined;
  finishReason: string | null;
}

/** The gateway's request id header (client-api section 5, rule 7). */
const REQUEST_ID_HEADER = 'x-gateway-request-id';

/**
 * `POST /v1/chat/completions` streamed, read as it arrives: each text delta goes to `onText` (and
 * reasoning to `onReasoning`), the final usage chunk and the finish reason are returned. An error
 * the gateway sends inside the stream is thrown as one before the stream started would be.
 * https://platform.openai.com/docs/api-reference/chat/streaming
 */
export async function streamChatCompletion(options: {
  key: string;
  model: string;
  messages: readonly ChatMessage[];
  signal: AbortSignal;
  /** Told the request id as soon as the gateway answered, before any text: a stopped answer has one too. */
  onStart?: (requestId: string | null) => void;
  onText: (text: string) => void;
  onReasoning?: (text: string) => void;
}): Promise<StreamedAnswer> {
  const response = await relayFetch('/v1/chat/completions', {
    key: options.key,
    signal: options.signal,
    body: {
      model: options.model,
      messages: options.messages,
      stream: true,
      stream_options: { include_usage: true },
    },
  });
  if (!response.ok) throw await relayError(response);
  const answer: StreamedAnswer = {
    requestId: response.headers.get(REQUEST_ID_HEADER),
    usage: undefined,
    finishReason: null,
  };
  options.onStart?.(answer.requestId);
  let failure: Error | undefined;
  const parser = createParser({
    onEvent: (event: EventSourceMessage) => {
      if (failure || event.data === '[DONE]') return;
      const parsed = parseJson(event.data);
      const chunk = parsed.ok ? parsed.value : undefined;
      if (!isRecord(chunk)) return;
      if (chunk['error'] !== undefined) {
        failure = toRelayError({ status: response.status, body: chunk });
        return;
      }
      readChunk(chunk, answer, options);
    },
  });
  const reader = response.body?.getReader();
  if (!reader) return answer;
  const decoder = new TextDecoder();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    parser.feed(decoder.decode(value, { stream: true }));
    if (failure) {
      await reader.cancel();
      throw failure;
    }
  }
  return answer;
}

function readChunk(
  chunk: Record<string, unknown>,
  answer: StreamedAnswer,
  callbacks: { onText: (text: string) => void; onReasoning?: (text: string) => void },
): void {
  const choices = Array.isArray(chunk['choices']) ? chunk['choices'] : [];
  for (const choice of choices) {
    if (!isRecord(choice)) continue;
    const delta = isRecord(choice['delta']) ? choice['delta'] : {};
    if (typeof delta['content'] === 'string' && delta['content'] !== '') callbacks.onText(delta['content']);
    // DeepSeek's and several compatible vendors' name for the model's reasoning text.
    const reasoning = delta['reasoning_content'] ?? delta['reasoning'];
    if (typeof reasoning === 'string' && reasoning !== '') callbacks.onReasoning?.(reasoning);
    if (typeof choice['finish_reason'] === 'string') answer.finishReason = choice['finish_reason'];
  }
  const usage = chunk['usage'];
  if (isRecord(usage) && typeof usage['prompt_tokens'] === 'number') {
    answer.usage = {
      promptTokens: usage['prompt_tokens'],
      completionTokens: typeof usage['completion_tokens'] === 'number' ? usage['completion_tokens'] : 0,
    };
  }
}
