import type { IssuedToken } from '../../ir/content.js';
import type { LossLog } from '../../ir/loss.js';
import type { FinishReason } from '../../ir/reply.js';
import type { StreamEvent } from '../../ir/stream-event.js';
import type { Usage } from '../../ir/usage.js';
import type { StreamEncoder, StreamEncoderOptions } from '../protocol-codec.js';
import { writeIssuedToken } from '../issued-token.js';
import { formatSseEvent } from '../sse/sse-event-reader.js';
import { toAnthropicMessageId, toAnthropicToolUseId } from './anthropic-ids.js';
import { encodeAnthropicUsage } from './encode-anthropic-usage.js';
import { formatAnthropicStreamError } from './format-anthropic-stream-error.js';
import { toAnthropicStopReason } from './map-anthropic-finish-reason.js';
import type { AnthropicBlockDelta, AnthropicStreamEvent } from './wire-types.js';
import { RepeatedTextEvent } from '../repeated-text-event.js';
import { PIECE_MEMBERS, pieceDelta, type PieceDeltaType } from './piece-delta.js';

type BlockEvent = Extract<
  StreamEvent,
  { type: `${'text' | 'reasoning' | 'tool-call'}-${'start' | 'delta' | 'end'}` }
>;

interface Block {
  /** Events kept while another block is on the wire. */
  pending: BlockEvent[];
  /** Anthropic index, once the block is on the wire. */
  wireIndex?: number;
  kind: 'text' | 'thinking' | 'redacted_thinking' | 'tool_use';
  ended: boolean;
  /** The block's last delta of a piece of text, learnt to write the next around their piece. */
  pieces?: RepeatedTextEvent;
}

/**
 * Canonical events -> Messages stream (https://docs.anthropic.com/en/docs/build-with-claude/streaming):
 * `message_start`, then `content_block_start` / `_delta` / `_stop` per block with increasing
 * `index`, then `message_delta` (stop reason and the authoritative usage) and `message_stop`.
 *
 * Anthropic streams one block at a time, so events of a block that starts while another is open
 * wait until that one ends. `message_start` can only state the gateway's input estimate
 * (client-api 4.7, rule 5). A finish without usage waits for a trailing `usage` event (OpenAI
 * chat sends it after the finish) or the end of the stream. A block's deltas of a piece of text
 * (text, thinking, tool input) are the same event but for the piece from the second on: each is
 * written around its piece's JSON (`RepeatedTextEvent`) instead of being built and serialised.
 */
export function createAnthropicStreamEncoder(options: StreamEncoderOptions): StreamEncoder {
  return new AnthropicStreamEncoder(options);
}

class AnthropicStreamEncoder implements StreamEncoder {
  private phase: 'before-start' | 'streaming' | 'awaiting-usage' | 'done' = 'before-start';
  private readonly blocks = new Map<number, Block>();
  /** Canonical indexes in start order; the first one is on the wire. */
  private readonly queue: number[] = [];
  private nextWireIndex = 0;
  private usage: Usage | undefined;
  private finishReason: FinishReason | undefined;
  private readonly losses: LossLog;

  constructor(private readonly options: StreamEncoderOptions) {
    this.losses = options.losses;
  }

  push(event: StreamEvent): string {
    if (this.phase === 'done') return '';
    switch (event.type) {
      case 'response-start':
        return this.start(event.id);
      case 'text-start':
      case 'reasoning-start':
      case 'tool-call-start':
      case 'text-delta':
      case 'reasoning-delta':
      case 'tool-call-delta':
      case 'text-end':
      case 'reasoning-end':
      case 'tool-call-end':
        return this.start('') + this.block(event);
      case 'file':
        // A generated image (Gemini image models) has no block in a Messages reply, which holds
        // text, thinking and tool use (https://docs.anthropic.com/en/api/messages#response-content).
        this.losses.dropped(`stream[${event.index}]`, 'no Anthropic reply block for file');
        return this.start('');
      case 'usage':
        this.usage = event.usage;
        return this.phase === 'awaiting-usage' ? this.close() : '';
      case 'finish': {
        const out = this.start('') + this.flushBlocks();
        this.finishReason = event.finishReason;
        if (event.usage) {
          this.usage = event.usage;
          return out + this.close();
        }
        this.phase = 'awaiting-usage';
        return out;
      }
      case 'error':
        this.phase = 'done';
        return formatAnthropicStreamError({ message: event.message, code: event.code, status: event.status });
      default: {
        const unreachable: never = event;
        return unreachable;
      }
    }
  }

  end(): string {
    return this.phase === 'awaiting-usage' ? this.close() : '';
  }

  private start(id: string): string {
    if (this.phase !== 'before-start') return '';
    this.phase = 'streaming';
    return sse({
      type: 'message_start',
      message: {
        id: toAnthropicMessageId(id),
        type: 'message',
        role: 'assistant',
        model: this.options.model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: {
          input_tokens: this.options.estimatedInputTokens,
          cache_creation_input_tokens: 0,
          cache_read_input_tokens: 0,
          output_tokens: 1,
        },
      },
    });
  }

  private block(event: BlockEvent): string {
    if (event.type.endsWith('-start')) {
      if (this.blocks.has(event.index)) return '';
      this.blocks.set(event.index, { pending: [event], kind: blockKind(event), ended: false });
      this.queue.push(event.index);
      return this.queue.length === 1 ? this.activate(event.index) : '';
    }
    const block = this.blocks.get(event.index);
    if (!block || block.ended) return '';
    if (this.queue[0] !== event.index) {
      block.pending.push(event);
      if (event.type.endsWith('-end')) block.ended = true;
      return '';
    }
    return this.write(block, event) + (block.ended ? this.advance() : '');
  }

  /** Puts the first queued block on the wire with everything it kept. */
  private activate(index: number): string {
    const block = this.blocks.get(index);
    if (!block) return '';
    block.wireIndex = this.nextWireIndex;
    this.nextWireIndex += 1;
    const pending = block.pending;
    block.pending = [];
    block.ended = false;
    let out = '';
    for (const event of pending) out += this.write(block, event);
    return out + (block.ended ? this.advance() : '');
  }

  /** The block on the wire ended: the next one in line goes on. */
  private advance(): string {
    this.queue.shift();
    const next = this.queue[0];
    return next === undefined ? '' : this.activate(next);
  }

  /** Ends every block: the finish has come. */
  private flushBlocks(): string {
    let out = '';
    while (this.queue.length > 0) {
      const index = this.queue[0] as number;
      const block = this.blocks.get(index);
      if (block && !block.ended) out += this.write(block, endEvent(block.kind, index));
      out += this.advance();
    }
    return out;
  }

  private write(block: Block, event: BlockEvent): string {
    const index = block.wireIndex ?? 0;
    switch (event.type) {
      case 'text-start':
        return sse({
          type: 'content_block_start',
          index,
          content_block: { type: 'text', text: '', citations: null },
        });
      case 'reasoning-start':
        return sse({
          type: 'content_block_start',
          index,
          content_block:
            event.redactedData !== undefined
              ? {
                  type: 'redacted_thinking',
                  data: writeIssuedToken(event.redactedData, { ownVendor: 'anthropic', role: 'redacted' }),
                }
              : { type: 'thinking', thinking: '', signature: '' },
        });
      case 'tool-call-start': {
        const id = toAnthropicToolUseId(event.id);
        if (id !== event.id)
          this.losses.coerced(`stream[${event.index}].id`, `tool call id ${event.id} sent as ${id}`);
        return sse({
          type: 'content_block_start',
          index,
          content_block: { type: 'tool_use', id, name: event.name, input: {}, caller: { type: 'direct' } },
        });
      }
      case 'text-delta':
        return piece(block, index, 'text_delta', event.text);
      case 'reasoning-delta':
        if (block.kind === 'redacted_thinking') {
          this.losses.dropped(`stream[${event.index}]`, 'redacted thinking has no text deltas');
          return '';
        }
        return piece(block, index, 'thinking_delta', event.text);
      case 'tool-call-delta':
        return event.argumentsDelta ? piece(block, index, 'input_json_delta', event.argumentsDelta) : '';
      case 'reasoning-end': {
        block.ended = true;
        let out = '';
        if (block.kind === 'thinking') {
          if (event.signature)
            out += delta(index, {
              type: 'signature_delta',
              signature: writeIssuedToken(event.signature, { ownVendor: 'anthropic' }),
            });
          else
            this.losses.dropped(
              `stream[${event.index}].signature`,
              'thinking from this model has no Anthropic signature',
            );
        }
        return out + stop(index);
      }
      case 'tool-call-end':
        block.ended = true;
        return stop(index) + (event.signature ? this.toolCallSignature(event.signature) : '');
      case 'text-end':
        block.ended = true;
        return stop(index);
      default: {
        const unreachable: never = event;
        return unreachable;
      }
    }
  }

  /**
   * A tool call's signature (Gemini's) as an empty thinking block of its own right after the
   * `tool_use` block, the only place an Anthropic message has for it; the client echoes it back.
   */
  private toolCallSignature(signature: IssuedToken): string {
    const index = this.nextWireIndex;
    this.nextWireIndex += 1;
    return (
      sse({
        type: 'content_block_start',
        index,
        content_block: { type: 'thinking', thinking: '', signature: '' },
      }) +
      delta(index, {
        type: 'signature_delta',
        signature: writeIssuedToken(signature, { ownVendor: 'anthropic' }),
      }) +
      stop(index)
    );
  }

  /** `message_delta` with the stop reason and the final usage, then `message_stop`. */
  private close(): string {
    this.phase = 'done';
    const finishReason = this.finishReason ?? { unified: 'other', raw: undefined };
    // `message_delta` usage has no TTL split (`MessageDeltaUsage`).
    const { cache_creation: _split, ...usage } = encodeAnthropicUsage(this.usage, {
      inputTokens: this.options.estimatedInputTokens,
    });
    return (
      sse({
        type: 'message_delta',
        delta: { stop_reason: toAnthropicStopReason(finishReason, this.losses), stop_sequence: null },
        usage,
      }) + sse({ type: 'message_stop' })
    );
  }
}

function blockKind(event: BlockEvent): Block['kind'] {
  if (event.type === 'text-start') return 'text';
  if (event.type === 'tool-call-start') return 'tool_use';
  if (event.type === 'reasoning-start')
    return event.redactedData !== undefined ? 'redacted_thinking' : 'thinking';
  return 'text';
}

function endEvent(kind: Block['kind'], index: number): BlockEvent {
  switch (kind) {
    case 'text':
      return { type: 'text-end', index };
    case 'thinking':
    case 'redacted_thinking':
      return { type: 'reasoning-end', index };
    case 'tool_use':
      return { type: 'tool-call-end', index };
    default: {
      const unreachable: never = kind;
      return unreachable;
    }
  }
}

function sse(data: AnthropicStreamEvent): string {
  return formatSseEvent({ event: data.type, data: JSON.stringify(data) });
}

/** A delta of a piece of text: the block's first is built, the next are its event around their piece. */
function piece(block: Block, index: number, type: PieceDeltaType, text: string): string {
  const pieces = (block.pieces ??= new RepeatedTextEvent());
  const written = pieces.withText(text);
  if (written !== undefined) return written;
  const event = delta(index, pieceDelta(type, text));
  pieces.learn(event, PIECE_MEMBERS[type], text);
  return event;
}

function delta(index: number, value: AnthropicBlockDelta): string {
  return sse({ type: 'content_block_delta', index, delta: value });
}

function stop(index: number): string {
  return sse({ type: 'content_block_stop', index });
}
