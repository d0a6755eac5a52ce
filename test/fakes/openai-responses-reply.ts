import { createHmac, timingSafeEqual } from 'node:crypto';
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

type Item = Record<string, unknown> & { id: string };

/** What the fake says when it refuses: OpenAI's wording for a refusal content part. */
export const FAKE_REFUSAL = "I'm sorry, but I can't help with that.";

// Shapes: `Response` and `ResponseStreamEvent` in openai/resources/responses/responses.
// https://platform.openai.com/docs/api-reference/responses-streaming
export function openaiResponsesReply(
  request: RecordedRequest,
  content: ReplyContent,
  nextId: (prefix: string) => string,
): FakeReply {
  const body = asRecord(request.body);
  const toolName = calledToolName(body, content);
  const reasoning = asRecord(body.reasoning);
  const withReasoning = body.reasoning !== undefined && body.reasoning !== null;
  const withSummary = typeof reasoning.summary === 'string';

  const items: Item[] = [];
  if (withReasoning) {
    const id = nextId('rs_');
    items.push({
      id,
      type: 'reasoning',
      summary: withSummary ? [{ type: 'summary_text', text: content.thinking }] : [],
      ...(wantsEncryptedContent(body) && { encrypted_content: issueEncryptedContent(id) }),
    });
  }
  if (toolName !== undefined) {
    for (let call = 0; call < Math.max(1, content.toolCallCount); call += 1)
      items.push({
        id: nextId('fc_'),
        type: 'function_call',
        status: 'completed',
        call_id: nextId('call_'),
        name: toolName,
        arguments: content.toolArguments,
      });
  } else
    items.push({
      id: nextId('msg_'),
      type: 'message',
      status: 'completed',
      role: 'assistant',
      content: [
        content.refusal
          ? { type: 'refusal', refusal: FAKE_REFUSAL }
          : { type: 'output_text', text: content.text, annotations: [], logprobs: [] },
      ],
    });

  const response = {
    id: nextId('resp_'),
    object: 'response',
    created_at: FAKE_CREATED_AT,
    status: 'completed',
    completed_at: FAKE_CREATED_AT + 1,
    background: false,
    error: null,
    incomplete_details: null,
    instructions: body.instructions ?? null,
    max_output_tokens: body.max_output_tokens ?? null,
    model: typeof body.model === 'string' ? body.model : 'gpt-fake',
    output: items,
    parallel_tool_calls: true,
    previous_response_id: null,
    reasoning: { effort: reasoning.effort ?? null, summary: reasoning.summary ?? null },
    service_tier: 'default',
    store: true,
    temperature: 1,
    text: { format: { type: 'text' }, verbosity: 'medium' },
    tool_choice: body.tool_choice ?? 'auto',
    tools: Array.isArray(body.tools) ? body.tools : [],
    top_p: 1,
    truncation: 'disabled',
    usage: openaiResponsesUsage(content.usage),
    metadata: {},
  };
  if (body.stream !== true) return { kind: 'json', body: response };

  let sequence = 0;
  const events: string[] = [];
  const emit = (type: string, data: Record<string, unknown>) =>
    events.push(sseEvent({ type, ...data, sequence_number: sequence++ }, { event: type }));
  const inProgress = { ...response, status: 'in_progress', completed_at: null, output: [], usage: null };
  emit('response.created', { response: inProgress });
  emit('response.in_progress', { response: inProgress });
  items.forEach((item, outputIndex) => {
    const at = { item_id: item.id, output_index: outputIndex };
    emit('response.output_item.added', { output_index: outputIndex, item: startedItem(item) });
    if (item.type === 'reasoning') {
      if (withSummary) emitSummary(emit, at, content.thinking);
    } else if (item.type === 'function_call') {
      const text = String(item.arguments);
      for (const delta of splitArguments(text))
        emit('response.function_call_arguments.delta', { ...at, delta });
      emit('response.function_call_arguments.done', { ...at, name: item.name, arguments: text });
    } else if (content.refusal) {
      const part = { type: 'refusal', refusal: '' };
      emit('response.content_part.added', { ...at, content_index: 0, part });
      for (const delta of splitIntoDeltas(FAKE_REFUSAL))
        emit('response.refusal.delta', { ...at, content_index: 0, delta });
      emit('response.refusal.done', { ...at, content_index: 0, refusal: FAKE_REFUSAL });
      emit('response.content_part.done', {
        ...at,
        content_index: 0,
        part: { ...part, refusal: FAKE_REFUSAL },
      });
    } else {
      const part = { type: 'output_text', text: '', annotations: [], logprobs: [] };
      emit('response.content_part.added', { ...at, content_index: 0, part });
      for (const delta of splitIntoDeltas(content.text))
        emit('response.output_text.delta', { ...at, content_index: 0, delta, logprobs: [] });
      emit('response.output_text.done', { ...at, content_index: 0, text: content.text, logprobs: [] });
      emit('response.content_part.done', { ...at, content_index: 0, part: { ...part, text: content.text } });
    }
    emit('response.output_item.done', { output_index: outputIndex, item });
  });
  emit('response.completed', { response });
  return { kind: 'sse', events };
}

function startedItem(item: Item): Item {
  switch (item.type) {
    case 'reasoning': {
      // The encrypted content comes with the item's end, once the reasoning is whole.
      const started: Item = { ...item, summary: [] };
      delete started.encrypted_content;
      return started;
    }
    case 'function_call':
      return { ...item, status: 'in_progress', arguments: '' };
    default:
      return { ...item, status: 'in_progress', content: [] };
  }
}

function emitSummary(
  emit: (type: string, data: Record<string, unknown>) => void,
  at: { item_id: string; output_index: number },
  text: string,
): void {
  const part = { type: 'summary_text', text: '' };
  emit('response.reasoning_summary_part.added', { ...at, summary_index: 0, part });
  for (const delta of splitIntoDeltas(text))
    emit('response.reasoning_summary_text.delta', { ...at, summary_index: 0, delta });
  emit('response.reasoning_summary_text.done', { ...at, summary_index: 0, text });
  emit('response.reasoning_summary_part.done', { ...at, summary_index: 0, part: { ...part, text } });
}

/** `ResponseUsage`: input tokens include cached ones, output tokens include reasoning ones. */
export function openaiResponsesUsage(usage: FakeUsage) {
  return {
    input_tokens: usage.inputTokens,
    input_tokens_details: { cached_tokens: usage.cachedTokens },
    output_tokens: usage.outputTokens,
    output_tokens_details: { reasoning_tokens: usage.reasoningTokens },
    total_tokens: usage.inputTokens + usage.outputTokens,
  };
}

/**
 * The function the model calls: the one `tool_choice` names, else the first function tool when the
 * script wants a call (`required` always calls); `none` calls nothing.
 * https://platform.openai.com/docs/guides/function-calling#tool-choice
 */
function calledToolName(body: Record<string, unknown>, content: ReplyContent): string | undefined {
  const choice = body.tool_choice;
  if (choice === 'none') return undefined;
  const forced = asRecord(choice);
  if (forced.type === 'function' && typeof forced.name === 'string') return forced.name;
  const first = firstToolName(body.tools);
  if (choice === 'required') return first;
  return content.toolCall === false ? undefined : first;
}

/** Responses function tools are flat: `{ type: 'function', name, parameters }`. */
function firstToolName(tools: unknown): string | undefined {
  if (!Array.isArray(tools)) return undefined;
  const tool = asRecord(tools.find((entry) => asRecord(entry).type === 'function'));
  return typeof tool.name === 'string' ? tool.name : undefined;
}

/**
 * Reasoning items carry `encrypted_content` when the request asks for it, or does not store the
 * response (https://platform.openai.com/docs/guides/reasoning#encrypted-reasoning-items).
 */
function wantsEncryptedContent(body: Record<string, unknown>): boolean {
  return (
    body.store === false ||
    (Array.isArray(body.include) && body.include.includes('reasoning.encrypted_content'))
  );
}

/** The fake's secret: what it issued it can verify, as OpenAI verifies the encrypted reasoning it issued. */
const ENCRYPTION_SECRET = 'fake-openai-reasoning-secret';

function seal(payload: string): Buffer {
  return createHmac('sha256', ENCRYPTION_SECRET).update(payload).digest();
}

/** Base64 of the item id and its HMAC-SHA256: opaque to the gateway, verifiable by the fake. */
export function issueEncryptedContent(itemId: string): string {
  return Buffer.concat([Buffer.from(`${itemId}.`), seal(itemId)]).toString('base64');
}

/** Whether the fake issued this encrypted content (for any item: the gateway may re-id an item). */
export function isIssuedEncryptedContent(value: string): boolean {
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(value)) return false;
  const bytes = Buffer.from(value, 'base64');
  const dot = bytes.length - 33;
  if (dot < 1 || bytes[dot] !== 0x2e) return false;
  return timingSafeEqual(bytes.subarray(dot + 1), seal(bytes.subarray(0, dot).toString()));
}
