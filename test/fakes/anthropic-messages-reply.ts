import { createHmac } from 'node:crypto';
import {
  asRecord,
  splitArguments,
  splitIntoDeltas,
  sseEvent,
  type FakeReply,
  type FakeUsage,
  type RecordedRequest,
  type ReplyContent,
} from './fake-upstream.js';

type Block = Record<string, unknown>;

/** The fake's own signing key: only the fake can issue a signature it later accepts. */
const SIGNING_SECRET = 'fake-anthropic-thinking-secret';

/**
 * A thinking signature as the API issues it: opaque base64 that only its issuer can verify, bound
 * to the thinking text (https://docs.anthropic.com/en/docs/build-with-claude/extended-thinking#thinking-encryption).
 */
export function signThinking(thinking: string): string {
  return createHmac('sha256', SIGNING_SECRET).update(`thinking\n${thinking}`).digest('base64');
}

/** Redacted thinking: opaque base64 data the fake can tell it issued (a nonce and its MAC). */
export function redactThinking(seed: string): string {
  const nonce = createHmac('sha256', SIGNING_SECRET).update(`nonce\n${seed}`).digest().subarray(0, 16);
  const mac = createHmac('sha256', SIGNING_SECRET).update(nonce).digest();
  return Buffer.concat([nonce, mac]).toString('base64');
}

export function isIssuedRedactedData(data: string): boolean {
  const bytes = Buffer.from(data, 'base64');
  if (bytes.length !== 48 || bytes.toString('base64') !== data) return false;
  const mac = createHmac('sha256', SIGNING_SECRET).update(bytes.subarray(0, 16)).digest();
  return mac.equals(bytes.subarray(16));
}

/**
 * Anthropic's documented test string: a prompt holding it gets its thinking back as
 * `redacted_thinking` (https://docs.anthropic.com/en/docs/build-with-claude/extended-thinking#thinking-redaction).
 */
export const REDACTED_THINKING_TRIGGER =
  'ANTHROPIC_MAGIC_STRING_TRIGGER_REDACTED_THINKING_46C9A13E193C177646C7398A98432ECCCE4C1253D5E2D82641AC0E52CC2876CB';

// Shapes: `Message` and `RawMessageStreamEvent` in @anthropic-ai/sdk/resources/messages.
// https://docs.anthropic.com/en/docs/build-with-claude/streaming
export function anthropicMessagesReply(
  request: RecordedRequest,
  content: ReplyContent,
  nextId: (prefix: string) => string,
): FakeReply {
  const body = asRecord(request.body);
  const thinkingType = asRecord(body.thinking).type;
  const toolName = firstToolName(body.tools);
  const withTool = toolName !== undefined && content.toolCall !== false && !content.refusal;

  const blocks: Block[] = [];
  if ((thinkingType === 'enabled' || thinkingType === 'adaptive') && !content.refusal)
    blocks.push(
      JSON.stringify(body.messages).includes(REDACTED_THINKING_TRIGGER)
        ? { type: 'redacted_thinking', data: redactThinking(content.thinking) }
        : { type: 'thinking', thinking: content.thinking, signature: signThinking(content.thinking) },
    );
  // A refusal stops before any answer (https://docs.anthropic.com/en/docs/test-and-evaluate/strengthen-guardrails/handle-streaming-refusals).
  if (!content.refusal) blocks.push({ type: 'text', text: content.text, citations: null });
  if (withTool)
    for (let call = 0; call < content.toolCallCount; call++)
      blocks.push({
        type: 'tool_use',
        id: nextId('toolu_'),
        name: toolName,
        input: JSON.parse(content.toolArguments) as unknown,
        caller: { type: 'direct' },
      });
  const stopReason = content.refusal ? 'refusal' : withTool ? 'tool_use' : 'end_turn';
  const stopDetails = content.refusal ? { type: 'refusal', category: null, explanation: null } : null;

  const message = {
    id: nextId('msg_'),
    type: 'message',
    role: 'assistant',
    model: typeof body.model === 'string' ? body.model : 'claude-fake',
    content: blocks,
    stop_reason: stopReason,
    stop_sequence: null,
    stop_details: stopDetails,
    container: null,
    usage: anthropicUsage(content.usage),
  };
  if (body.stream !== true) return { kind: 'json', body: message };

  const events: string[] = [];
  const emit = (type: string, data: Record<string, unknown> = {}) =>
    events.push(sseEvent({ type, ...data }, { event: type }));
  const started = {
    ...message,
    content: [],
    stop_reason: null,
    usage: { ...message.usage, output_tokens: 1 },
  };
  emit('message_start', { message: started });
  blocks.forEach((block, index) => {
    emit('content_block_start', { index, content_block: startedBlock(block) });
    if (index === 0) emit('ping');
    for (const delta of blockDeltas(block)) emit('content_block_delta', { index, delta });
    emit('content_block_stop', { index });
  });
  const { input_tokens, cache_creation_input_tokens, cache_read_input_tokens, output_tokens } = message.usage;
  emit('message_delta', {
    delta: {
      stop_reason: message.stop_reason,
      stop_sequence: null,
      stop_details: stopDetails,
      container: null,
    },
    usage: {
      input_tokens,
      cache_creation_input_tokens,
      cache_read_input_tokens,
      output_tokens,
      server_tool_use: null,
    },
  });
  emit('message_stop');
  return { kind: 'sse', events };
}

function startedBlock(block: Block): Block {
  switch (block.type) {
    case 'thinking':
      return { ...block, thinking: '', signature: '' };
    case 'tool_use':
      return { ...block, input: {} };
    case 'redacted_thinking':
      return block;
    default:
      return { ...block, text: '' };
  }
}

function blockDeltas(block: Block): Block[] {
  switch (block.type) {
    case 'thinking':
      return [
        ...splitIntoDeltas(String(block.thinking)).map((thinking) => ({ type: 'thinking_delta', thinking })),
        { type: 'signature_delta', signature: block.signature },
      ];
    case 'tool_use':
      return splitArguments(JSON.stringify(block.input)).map((partial_json) => ({
        type: 'input_json_delta',
        partial_json,
      }));
    case 'redacted_thinking':
      return [];
    default:
      return splitIntoDeltas(String(block.text)).map((text) => ({ type: 'text_delta', text }));
  }
}

/** `Usage`: `input_tokens` excludes cache reads and writes, which have their own counts. */
function anthropicUsage(usage: FakeUsage) {
  return {
    input_tokens: usage.inputTokens - usage.cachedTokens - usage.cacheWriteTokens,
    cache_creation_input_tokens: usage.cacheWriteTokens,
    cache_read_input_tokens: usage.cachedTokens,
    cache_creation: { ephemeral_5m_input_tokens: usage.cacheWriteTokens, ephemeral_1h_input_tokens: 0 },
    output_tokens: usage.outputTokens,
    server_tool_use: null,
    service_tier: 'standard',
  };
}

function firstToolName(tools: unknown): string | undefined {
  if (!Array.isArray(tools)) return undefined;
  const name = asRecord(tools[0]).name;
  return typeof name === 'string' ? name : undefined;
}
