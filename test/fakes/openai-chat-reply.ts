import {
  asRecord,
  FAKE_CREATED_AT,
  splitArguments,
  splitIntoDeltas,
  sseEvent,
  type FakeReply,
  type FakeUsage,
  type RecordedRequest,
  type ReplyContent,
} from './fake-upstream.js';

// Shapes: `ChatCompletion` and `ChatCompletionChunk` in openai/resources/chat/completions.
// https://platform.openai.com/docs/api-reference/chat/object
export function openaiChatReply(
  request: RecordedRequest,
  content: ReplyContent,
  nextId: (prefix: string) => string,
): FakeReply {
  const body = asRecord(request.body);
  const model = typeof body.model === 'string' ? body.model : 'gpt-fake';
  const toolName = firstToolName(body.tools);
  const toolCall =
    toolName !== undefined && content.toolCall !== false
      ? { id: nextId('call_'), name: toolName }
      : undefined;
  const envelope = {
    id: nextId('chatcmpl-'),
    created: FAKE_CREATED_AT,
    model,
    system_fingerprint: 'fp_fake',
  };
  const finishReason = toolCall ? 'tool_calls' : 'stop';

  if (body.stream !== true) {
    const message = toolCall
      ? {
          role: 'assistant',
          content: null,
          refusal: null,
          annotations: [],
          tool_calls: [
            {
              id: toolCall.id,
              type: 'function',
              function: { name: toolCall.name, arguments: content.toolArguments },
            },
          ],
        }
      : { role: 'assistant', content: content.text, refusal: null, annotations: [] };
    return {
      kind: 'json',
      body: {
        ...envelope,
        object: 'chat.completion',
        choices: [{ index: 0, message, logprobs: null, finish_reason: finishReason }],
        usage: openaiChatUsage(content.usage),
        service_tier: 'default',
      },
    };
  }

  // With `stream_options.include_usage`, every chunk carries `usage: null` and one more chunk with
  // empty `choices` carries the usage: https://platform.openai.com/docs/api-reference/chat/streaming
  const includeUsage = asRecord(body.stream_options).include_usage === true;
  const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
    sseEvent({
      ...envelope,
      object: 'chat.completion.chunk',
      service_tier: 'default',
      choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
      ...(includeUsage && { usage: null }),
    });
  const events = toolCall
    ? [
        chunk({
          role: 'assistant',
          content: null,
          tool_calls: [
            { index: 0, id: toolCall.id, type: 'function', function: { name: toolCall.name, arguments: '' } },
          ],
          refusal: null,
        }),
        ...splitArguments(content.toolArguments).map((part) =>
          chunk({ tool_calls: [{ index: 0, function: { arguments: part } }] }),
        ),
      ]
    : [
        chunk({ role: 'assistant', content: '', refusal: null }),
        ...splitIntoDeltas(content.text).map((part) => chunk({ content: part })),
      ];
  events.push(chunk({}, finishReason));
  if (includeUsage)
    events.push(
      sseEvent({
        ...envelope,
        object: 'chat.completion.chunk',
        service_tier: 'default',
        choices: [],
        usage: openaiChatUsage(content.usage),
      }),
    );
  events.push(sseEvent('[DONE]'));
  return { kind: 'sse', events };
}

/** `CompletionUsage`: prompt tokens include cached ones, completion tokens include reasoning ones. */
function openaiChatUsage(usage: FakeUsage) {
  return {
    prompt_tokens: usage.inputTokens,
    completion_tokens: usage.outputTokens,
    total_tokens: usage.inputTokens + usage.outputTokens,
    prompt_tokens_details: { cached_tokens: usage.cachedTokens, audio_tokens: 0 },
    completion_tokens_details: {
      reasoning_tokens: usage.reasoningTokens,
      audio_tokens: 0,
      accepted_prediction_tokens: 0,
      rejected_prediction_tokens: 0,
    },
  };
}

function firstToolName(tools: unknown): string | undefined {
  if (!Array.isArray(tools)) return undefined;
  const name = asRecord(asRecord(tools[0]).function).name;
  return typeof name === 'string' ? name : undefined;
}
