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

/** What the models answer when they refuse (https://platform.openai.com/docs/guides/structured-outputs#refusals). */
export const OPENAI_REFUSAL = "I'm sorry, but I can't assist with that request.";

interface FakeToolCall {
  id: string;
  name: string;
  arguments: string;
}

export interface OpenAIChatReplyOptions {
  /**
   * Where OpenAI-compatible vendors put the model's thinking (`content.thinking`) beside a text
   * answer or tool calls: `reasoning_content` (DeepSeek, https://api-docs.deepseek.com/guides/thinking_mode)
   * or `reasoning` (OpenRouter, https://openrouter.ai/docs/use-cases/reasoning-tokens). Default:
   * none, as OpenAI's own API never returns it.
   */
  reasoningField?: 'reasoning_content' | 'reasoning';
}

// Shapes: `ChatCompletion` and `ChatCompletionChunk` in openai/resources/chat/completions.
// https://platform.openai.com/docs/api-reference/chat/object
export function openaiChatReply(
  request: RecordedRequest,
  content: ReplyContent,
  nextId: (prefix: string) => string,
  options: OpenAIChatReplyOptions = {},
): FakeReply {
  const field = options.reasoningField;
  const body = asRecord(request.body);
  const model = typeof body.model === 'string' ? body.model : 'gpt-fake';
  const forced = forcedTool(body.tool_choice);
  const toolName = typeof forced === 'string' ? forced : firstToolName(body.tools);
  const calls: FakeToolCall[] =
    !content.refusal && toolName !== undefined && content.toolCall !== false
      ? Array.from({ length: Math.max(1, content.toolCallCount) }, () => ({
          id: nextId('call_'),
          name: toolName,
          arguments: content.toolArguments,
        }))
      : [];
  const envelope = {
    id: nextId('chatcmpl-'),
    created: FAKE_CREATED_AT,
    model,
    system_fingerprint: 'fp_fake',
  };
  // A forced call (`tool_choice` naming a function, or `required`) finishes `stop`, not `tool_calls`.
  const finishReason = calls.length > 0 && forced === undefined ? 'tool_calls' : 'stop';

  if (body.stream !== true) {
    const message =
      calls.length > 0
        ? {
            role: 'assistant',
            content: null,
            refusal: null,
            annotations: [],
            ...(field && { [field]: content.thinking }),
            tool_calls: calls.map((call) => ({
              id: call.id,
              type: 'function',
              function: { name: call.name, arguments: call.arguments },
            })),
          }
        : content.refusal
          ? { role: 'assistant', content: null, refusal: OPENAI_REFUSAL, annotations: [] }
          : {
              role: 'assistant',
              content: content.text,
              refusal: null,
              annotations: [],
              ...(field && { [field]: content.thinking }),
            };
    return {
      kind: 'json',
      body: {
        ...envelope,
        object: 'chat.completion',
        choices: [{ index: 0, message, logprobs: null, finish_reason: finishReason }],
        ...(!content.omitUsage && { usage: openaiChatUsage(content.usage) }),
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
  const thinking = field ? splitIntoDeltas(content.thinking).map((part) => chunk({ [field]: part })) : [];
  const events =
    calls.length > 0
      ? [...thinking, ...toolCallChunks(calls, content.interleaveToolCalls).map((delta) => chunk(delta))]
      : content.refusal
        ? [
            chunk({ role: 'assistant', content: null, refusal: '' }),
            ...splitIntoDeltas(OPENAI_REFUSAL).map((part) => chunk({ refusal: part })),
          ]
        : [
            chunk({ role: 'assistant', content: '', refusal: null }),
            ...thinking,
            ...splitIntoDeltas(content.text).map((part) => chunk({ content: part })),
          ];
  events.push(chunk({}, finishReason));
  if (includeUsage && !content.omitUsage)
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

/**
 * The deltas of the calls: each call's first piece carries its id and name, the arguments follow
 * in pieces, call after call; `interleave` sends them in turn, one piece of each call at a time,
 * which clients must assemble by `index`.
 */
function toolCallChunks(calls: readonly FakeToolCall[], interleave: boolean): Record<string, unknown>[] {
  const opening = (call: FakeToolCall, index: number) => ({
    tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } }],
  });
  const piece = (index: number, text: string) => ({ tool_calls: [{ index, function: { arguments: text } }] });
  const perCall = calls.map((call, index) => [
    opening(call, index),
    ...splitArguments(call.arguments).map((text) => piece(index, text)),
  ]);
  const ordered = interleave
    ? Array.from({ length: Math.max(...perCall.map((deltas) => deltas.length)) }, (_, step) =>
        perCall.flatMap((deltas) => deltas.slice(step, step + 1)),
      ).flat()
    : perCall.flat();
  const [first, ...rest] = ordered;
  return [{ role: 'assistant', content: null, ...first, refusal: null }, ...rest];
}

/** The function `tool_choice` forces: its name, `true` for `required`, undefined when not forced. */
function forcedTool(choice: unknown): string | true | undefined {
  if (choice === 'required') return true;
  const name = asRecord(asRecord(choice).function).name;
  return asRecord(choice).type === 'function' && typeof name === 'string' ? name : undefined;
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
