import type { LossLog } from '../../ir/loss.js';
import type { StreamEvent } from '../../ir/stream-event.js';
import type { Usage } from '../../ir/usage.js';
import { writeIssuedToken } from '../issued-token.js';
import { estimateUnlessReported, type StreamEncoder, type StreamEncoderOptions } from '../protocol-codec.js';
import { formatSseEvent } from '../sse/sse-event-reader.js';
import { formatConverseStreamException } from './bedrock-converse-exceptions.js';
import { toConverseToolUseId } from './bedrock-converse-ids.js';
import { encodeConverseUsage } from './convert-bedrock-converse-usage.js';
import { toConverseStopReason } from './map-bedrock-converse-stop-reason.js';

interface Block {
  /** `contentBlockIndex`, given when the block first goes on the wire, so indexes rise in wire order. */
  wireIndex?: number;
  kind: 'text' | 'reasoning' | 'redacted' | 'tool-call';
}

type ReasoningDelta = { text: string } | { signature: string } | { redactedContent: string };

/**
 * Canonical events -> ConverseStream events, one SSE-style event per event-stream frame as the
 * transport frames them (`event: contentBlockDelta`, `data: {"contentBlockIndex":0,...}`):
 * `messageStart`, then per block its deltas (tool use also a `contentBlockStart`) and
 * `contentBlockStop`, then `messageStop` with the stop reason and `metadata` with the usage
 * (https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_ConverseStream.html).
 * Each event names its block, so blocks may interleave; a block's index is given when it first
 * goes on the wire. A finish without usage waits for a trailing `usage` event or the end of the
 * stream.
 */
export function createConverseStreamEncoder(options: StreamEncoderOptions): StreamEncoder {
  return new ConverseStreamEncoder(options);
}

class ConverseStreamEncoder implements StreamEncoder {
  private phase: 'before-start' | 'streaming' | 'awaiting-usage' | 'done' = 'before-start';
  private readonly blocks = new Map<number, Block>();
  private nextWireIndex = 0;
  private usage: Usage | undefined;
  private readonly losses: LossLog;

  constructor(private readonly options: StreamEncoderOptions) {
    this.losses = options.losses;
  }

  push(event: StreamEvent): string {
    if (this.phase === 'done') return '';
    switch (event.type) {
      case 'response-start':
        return this.start();
      case 'text-start':
        return this.start() + this.open(event.index, 'text');
      case 'reasoning-start': {
        const token = event.redactedData;
        if (!token) return this.start() + this.open(event.index, 'reasoning');
        const out =
          this.start() + this.open(event.index, token.issuer === 'anthropic' ? 'redacted' : 'reasoning');
        const block = this.blocks.get(event.index);
        if (!block) return out;
        return (
          out +
          reasoningDelta(
            this.wireIndexOf(block),
            token.issuer === 'anthropic'
              ? { redactedContent: token.value }
              : { signature: writeIssuedToken(token, { ownVendor: 'anthropic', role: 'redacted' }) },
          )
        );
      }
      case 'tool-call-start': {
        const out = this.start() + this.open(event.index, 'tool-call');
        const block = this.blocks.get(event.index);
        if (!block) return out;
        const id = toConverseToolUseId(event.id);
        if (id !== event.id)
          this.losses.coerced(`stream[${event.index}].id`, `tool call id ${event.id} sent as ${id}`);
        return (
          out +
          frame('contentBlockStart', {
            contentBlockIndex: this.wireIndexOf(block),
            start: { toolUse: { toolUseId: id, name: event.name } },
          })
        );
      }
      case 'text-delta':
        return this.delta(event.index, 'text', { text: event.text });
      case 'reasoning-delta':
        if (this.blocks.get(event.index)?.kind === 'redacted') {
          this.losses.dropped(`stream[${event.index}]`, 'redacted reasoning has no text deltas');
          return '';
        }
        return this.delta(event.index, 'reasoning', { reasoningContent: { text: event.text } });
      case 'tool-call-delta':
        return event.argumentsDelta
          ? this.delta(event.index, 'tool-call', { toolUse: { input: event.argumentsDelta } })
          : '';
      case 'text-end':
        return this.endBlock(event.index);
      case 'reasoning-end': {
        const block = this.blocks.get(event.index);
        if (!event.signature || block?.kind !== 'reasoning') return this.endBlock(event.index);
        const signature = writeIssuedToken(event.signature, { ownVendor: 'anthropic' });
        return (
          this.delta(event.index, 'reasoning', { reasoningContent: { signature } }) +
          this.endBlock(event.index)
        );
      }
      case 'tool-call-end':
        if (event.signature)
          this.losses.dropped(
            `stream[${event.index}].signature`,
            'a Converse tool use has no place for a signature',
          );
        return this.endBlock(event.index);
      case 'file':
        this.losses.dropped(`stream[${event.index}]`, 'no ConverseStream event for a whole file');
        return this.start();
      case 'usage':
        this.usage = event.usage;
        return this.phase === 'awaiting-usage' ? this.metadata() : '';
      case 'finish': {
        let out = this.start();
        for (const index of [...this.blocks.keys()]) out += this.endBlock(index);
        out += frame('messageStop', { stopReason: toConverseStopReason(event.finishReason, this.losses) });
        if (event.usage) this.usage = event.usage;
        if (event.usage) return out + this.metadata();
        this.phase = 'awaiting-usage';
        return out;
      }
      case 'error':
        this.phase = 'done';
        return formatConverseStreamException(event);
      default: {
        const unreachable: never = event;
        return unreachable;
      }
    }
  }

  end(): string {
    return this.phase === 'awaiting-usage' ? this.metadata() : '';
  }

  private endBlock(index: number): string {
    const block = this.blocks.get(index);
    if (!block) return '';
    this.blocks.delete(index);
    // A block that said nothing still exists on the wire: an empty delta opens it.
    const opening = block.wireIndex === undefined ? openingDelta(block.kind, this.wireIndexOf(block)) : '';
    return opening + frame('contentBlockStop', { contentBlockIndex: this.wireIndexOf(block) });
  }

  private start(): string {
    if (this.phase !== 'before-start') return '';
    this.phase = 'streaming';
    return frame('messageStart', { role: 'assistant' });
  }

  private open(index: number, kind: Block['kind']): string {
    if (this.blocks.has(index)) return '';
    this.blocks.set(index, { kind });
    return '';
  }

  private wireIndexOf(block: Block): number {
    if (block.wireIndex === undefined) {
      block.wireIndex = this.nextWireIndex;
      this.nextWireIndex += 1;
    }
    return block.wireIndex;
  }

  private delta(
    index: number,
    kind: 'text' | 'reasoning' | 'tool-call',
    delta: Record<string, unknown>,
  ): string {
    const block = this.blocks.get(index);
    if (!block || block.kind !== kind) return '';
    return frame('contentBlockDelta', { contentBlockIndex: this.wireIndexOf(block), delta });
  }

  /** `metadata`: the final usage (the relay's input estimate when none came) and metrics. */
  private metadata(): string {
    this.phase = 'done';
    const usage = encodeConverseUsage(this.usage, {
      inputTokens: estimateUnlessReported(this.usage, this.options) ?? 0,
    });
    return frame('metadata', { usage, metrics: { latencyMs: 0 } });
  }
}

function openingDelta(kind: Block['kind'], wireIndex: number): string {
  switch (kind) {
    case 'text':
      return frame('contentBlockDelta', { contentBlockIndex: wireIndex, delta: { text: '' } });
    case 'reasoning':
    case 'redacted':
      return reasoningDelta(wireIndex, { text: '' });
    case 'tool-call':
      return '';
    default: {
      const unreachable: never = kind;
      return unreachable;
    }
  }
}

function reasoningDelta(wireIndex: number, delta: ReasoningDelta): string {
  return frame('contentBlockDelta', { contentBlockIndex: wireIndex, delta: { reasoningContent: delta } });
}

function frame(event: string, payload: Record<string, unknown>): string {
  return formatSseEvent({ event, data: JSON.stringify(payload) });
}
