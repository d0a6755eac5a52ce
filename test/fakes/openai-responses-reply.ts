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

// Shapes: `Response` and `ResponseStreamEvent` in openai/resources/responses/responses.
// https://platform.openai.com/docs/api-reference/responses-streaming
export function openaiResponsesReply(
  request: RecordedRequest,
  content: ReplyContent,
  nextId: (prefix: string) => string,
): FakeReply {
  const body = asRecord(request.body);
  const toolName = firstToolName(body.tools);
  const reasoning = asRecord(body.reasoning);
  const withReasoning = body.reasoning !== undefined && body.reasoning !== null;
  const withSummary = typeof reasoning.summary === 'string';

  const items: Item[] = [];
  if (withReasoning)
    items.push({
      id: nextId('rs_'),
      type: 'reasoning',
      summary: withSummary ? [{ type: 'summary_text', text: content.thinking }] : [],
    });
  if (toolName !== undefined && content.toolCall !== false)
    items.push({
      id: nextId('fc_'),
      type: 'function_call',
      status: 'completed',
      call_id: nextId('call_'),
      name: toolName,
      arguments: content.toolArguments,
    });
  else
    items.push({
      id: nextId('msg_'),
      type: 'message',
      status: 'completed',
      role: 'assistant',
      content: [{ type: 'output_text', text: content.text, annotations: [], logprobs: [] }],
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
    tool_choice: 'auto',
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
    case 'reasoning':
      return { ...item, summary: [] };
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
function openaiResponsesUsage(usage: FakeUsage) {
  return {
    input_tokens: usage.inputTokens,
    input_tokens_details: { cached_tokens: usage.cachedTokens },
    output_tokens: usage.outputTokens,
    output_tokens_details: { reasoning_tokens: usage.reasoningTokens },
    total_tokens: usage.inputTokens + usage.outputTokens,
  };
}

/** Responses function tools are flat: `{ type: 'function', name, parameters }`. */
function firstToolName(tools: unknown): string | undefined {
  if (!Array.isArray(tools)) return undefined;
  const tool = asRecord(tools.find((entry) => asRecord(entry).type === 'function'));
  return typeof tool.name === 'string' ? tool.name : undefined;
}
