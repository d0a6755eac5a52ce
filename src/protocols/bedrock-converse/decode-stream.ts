import type { IssuedToken } from '../../ir/content.js';
import type { LossLog } from '../../ir/loss.js';
import type { FinishReason } from '../../ir/reply.js';
import type { StreamEvent } from '../../ir/stream-event.js';
import type { Usage } from '../../ir/usage.js';
import { readIssuedToken } from '../issued-token.js';
import type { StreamDecoder } from '../protocol-codec.js';
import type { SseEvent } from '../sse/sse-event-reader.js';
import { notJsonObjectDetail } from '../sse/stream-break.js';
import { parseJson } from '../wire-json.js';
import { BEDROCK_PADDING, RepeatedTextEvent } from '../repeated-text-event.js';
import { pieceDeltaRead, readPieceDeltaEvent, type PieceDeltaEvent } from './piece-delta-event.js';
import { decodeConverseStreamException, readConverseStreamException } from './bedrock-converse-exceptions.js';
import { convertConverseUsage } from './convert-bedrock-converse-usage.js';
import { converseStreamId } from './converse-response-id.js';
import { mapConverseStopReason } from './map-bedrock-converse-stop-reason.js';
import {
  converseStreamEventSchema,
  type ConverseBlockDeltaRead,
  type ConverseStreamEventRead,
} from './wire-schemas.js';

type BlockKind = 'text' | 'reasoning' | 'tool-call';

interface OpenBlock {
  kind: BlockKind;
  /** Canonical index: blocks are numbered in the order they start. */
  index: number;
  signature?: IssuedToken;
}

/**
 * ConverseStream events (https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_ConverseStream.html),
 * one per AWS event-stream frame: the transport names each by its `:event-type` (or, for an
 * exception, `:exception-type`) and passes its JSON payload as the data. `messageStart` opens
 * the response; text and reasoning blocks open with their first `contentBlockDelta` (only tool
 * use has a `contentBlockStart`); `messageStop` brings the stop reason and `metadata`, after it,
 * the usage, so the finish waits for `metadata` (or the end of the stream). An exception ends the
 * stream with an `error`; an event that is not a JSON object breaks it. A `contentBlockDelta` that
 * repeats the last piece delta but for its piece and its `p` padding is read by its piece alone
 * (`RepeatedTextEvent`).
 */
export function createConverseStreamDecoder(losses: LossLog): StreamDecoder {
  return new ConverseStreamDecoder(losses);
}

const PIECE_EVENT = 'contentBlockDelta';

class ConverseStreamDecoder implements StreamDecoder {
  private phase: 'before-start' | 'streaming' | 'stopped' | 'done' = 'before-start';
  /** Open blocks by `contentBlockIndex`; `null` marks a block that has no canonical form. */
  private readonly open = new Map<number, OpenBlock | null>();
  private nextIndex = 0;
  private usage: Usage | undefined;
  private finishReason: FinishReason | undefined;
  private brokenBy: string | undefined;
  private readonly repeated = new RepeatedTextEvent([BEDROCK_PADDING]);
  /** The block and kind of the piece delta `repeated` learnt. */
  private learnt: PieceDeltaEvent | undefined;

  constructor(private readonly losses: LossLog) {}

  push(event: SseEvent): StreamEvent[] {
    if (this.phase === 'done') return [];
    const name = event.event;
    if (name === PIECE_EVENT && this.learnt) {
      const piece = this.repeated.textOf(event.data);
      if (piece !== undefined)
        return this.blockDelta({
          contentBlockIndex: this.learnt.wireIndex,
          delta: pieceDeltaRead(this.learnt.kind, piece),
        });
    }
    const parsed = parseJson(event.data);
    const exception = readConverseStreamException(name);
    if (exception) {
      this.phase = 'done';
      return [decodeConverseStreamException(exception, parsed.ok ? parsed.value : undefined)];
    }
    const read = parsed.ok ? converseStreamEventSchema.safeParse(parsed.value) : undefined;
    const data = read?.success ? read.data : undefined;
    if (!data) {
      this.phase = 'done';
      this.brokenBy = notJsonObjectDetail(event.data);
      return [];
    }
    switch (name) {
      case 'messageStart':
        return this.ensureStarted();
      case 'contentBlockStart':
        return [...this.ensureStarted(), ...this.blockStart(data)];
      case PIECE_EVENT: {
        const events = [...this.ensureStarted(), ...this.blockDelta(data)];
        this.learn(event.data, parsed.ok ? parsed.value : undefined);
        return events;
      }
      case 'contentBlockStop':
        return [...this.ensureStarted(), ...this.blockStop(data.contentBlockIndex)];
      case 'messageStop': {
        const events = [...this.ensureStarted(), ...this.closeAll()];
        this.finishReason = mapConverseStopReason(data.stopReason);
        this.phase = 'stopped';
        return events;
      }
      case 'metadata':
        this.usage = convertConverseUsage(data.usage) ?? this.usage;
        return this.phase === 'stopped' ? this.finish() : this.ensureStarted();
      default:
        // Event types added later carry nothing to convert.
        return [];
    }
  }

  end(): StreamEvent[] {
    if (this.phase === 'done') return [];
    return [...this.ensureStarted(), ...this.finish()];
  }

  broken(): string | undefined {
    return this.brokenBy;
  }

  /** Learns a piece delta's payload, so that the next one like it is read by its piece alone. */
  private learn(source: string, payload: unknown): void {
    const read = readPieceDeltaEvent(payload);
    if (!read) return;
    this.learnt = read;
    this.repeated.learn(source, read.member, read.piece);
  }

  /** `response-start` first, whatever event comes first. Converse names neither the response nor the model. */
  private ensureStarted(): StreamEvent[] {
    if (this.phase !== 'before-start') return [];
    this.phase = 'streaming';
    return [
      { type: 'response-start', id: converseStreamId(), model: '', created: Math.floor(Date.now() / 1000) },
    ];
  }

  private openBlock(wireIndex: number, kind: BlockKind): OpenBlock {
    const block: OpenBlock = { kind, index: this.nextIndex };
    this.nextIndex += 1;
    this.open.set(wireIndex, block);
    return block;
  }

  /** `contentBlockStart`: tool use; tool results and images (server tools, image output) have no canonical stream event. */
  private blockStart(data: ConverseStreamEventRead): StreamEvent[] {
    const wireIndex = data.contentBlockIndex;
    if (wireIndex === undefined || this.open.has(wireIndex)) return [];
    const toolUse = data.start?.toolUse;
    if (toolUse && toolUse.type === undefined) {
      const block = this.openBlock(wireIndex, 'tool-call');
      return [
        {
          type: 'tool-call-start',
          index: block.index,
          id: toolUse.toolUseId ?? '',
          name: toolUse.name ?? '',
        },
      ];
    }
    this.open.set(wireIndex, null);
    const kind = Object.keys(data.start ?? {})[0] ?? 'unknown';
    this.losses.dropped(`content[${wireIndex}]`, `a streamed ${kind} block has no canonical stream event`);
    return [];
  }

  private blockDelta(data: ConverseStreamEventRead): StreamEvent[] {
    const wireIndex = data.contentBlockIndex;
    const delta = data.delta;
    if (wireIndex === undefined || !delta) return [];
    if (!this.open.has(wireIndex)) return this.implicitStart(wireIndex, delta);
    const block = this.open.get(wireIndex);
    if (!block) return [];
    const { index } = block;
    if (delta.text !== undefined && block.kind === 'text')
      return delta.text ? [{ type: 'text-delta', index, text: delta.text }] : [];
    if (delta.toolUse !== undefined && block.kind === 'tool-call')
      return delta.toolUse.input
        ? [{ type: 'tool-call-delta', index, argumentsDelta: delta.toolUse.input }]
        : [];
    const reasoning = delta.reasoningContent;
    if (reasoning !== undefined && block.kind === 'reasoning') {
      if (reasoning.signature) block.signature = readIssuedToken(reasoning.signature, 'anthropic').token;
      if (reasoning.redactedContent !== undefined)
        this.losses.dropped(
          `content[${wireIndex}]`,
          'redacted content after reasoning has no canonical stream event',
        );
      if (!reasoning.text) return [];
      return [{ type: 'reasoning-delta', index, text: reasoning.text }];
    }
    this.losses.dropped(
      `content[${wireIndex}].delta`,
      `a ${Object.keys(delta)[0] ?? 'empty'} delta has no place in a ${block.kind} block`,
    );
    return [];
  }

  /** Text and reasoning blocks have no `contentBlockStart`: their first delta opens them. */
  private implicitStart(wireIndex: number, delta: ConverseBlockDeltaRead): StreamEvent[] {
    if (delta.text !== undefined) {
      const { index } = this.openBlock(wireIndex, 'text');
      return [
        { type: 'text-start', index },
        ...(delta.text ? [{ type: 'text-delta' as const, index, text: delta.text }] : []),
      ];
    }
    const reasoning = delta.reasoningContent;
    if (reasoning !== undefined) {
      const block = this.openBlock(wireIndex, 'reasoning');
      if (reasoning.redactedContent !== undefined) {
        const redactedData = readIssuedToken(reasoning.redactedContent, 'anthropic').token;
        return [{ type: 'reasoning-start', index: block.index, redactedData }];
      }
      if (reasoning.signature) {
        // Another vendor's encrypted reasoning, written by the gateway's encoder as a marked signature.
        const { token, role } = readIssuedToken(reasoning.signature, 'anthropic');
        if (role === 'redacted')
          return [{ type: 'reasoning-start', index: block.index, redactedData: token }];
        block.signature = token;
      }
      const start: StreamEvent = { type: 'reasoning-start', index: block.index };
      return reasoning.text
        ? [start, { type: 'reasoning-delta', index: block.index, text: reasoning.text }]
        : [start];
    }
    this.open.set(wireIndex, null);
    this.losses.dropped(
      `content[${wireIndex}]`,
      `a streamed ${Object.keys(delta)[0] ?? 'empty'} delta has no canonical stream event`,
    );
    return [];
  }

  private blockStop(wireIndex: number | undefined): StreamEvent[] {
    if (wireIndex === undefined || !this.open.has(wireIndex)) return [];
    const block = this.open.get(wireIndex);
    this.open.delete(wireIndex);
    return block ? [closeBlock(block)] : [];
  }

  private closeAll(): StreamEvent[] {
    const events: StreamEvent[] = [];
    for (const block of this.open.values()) if (block) events.push(closeBlock(block));
    this.open.clear();
    return events;
  }

  /** Closes what is still open and finishes; a stream cut before its stop reason finishes as `other`. */
  private finish(): StreamEvent[] {
    const events = this.closeAll();
    this.phase = 'done';
    events.push({
      type: 'finish',
      finishReason: this.finishReason ?? { unified: 'other', raw: undefined },
      ...(this.usage ? { usage: this.usage } : {}),
    });
    return events;
  }
}

function closeBlock(block: OpenBlock): StreamEvent {
  switch (block.kind) {
    case 'text':
      return { type: 'text-end', index: block.index };
    case 'reasoning':
      return {
        type: 'reasoning-end',
        index: block.index,
        ...(block.signature ? { signature: block.signature } : {}),
      };
    case 'tool-call':
      return { type: 'tool-call-end', index: block.index };
    default: {
      const unreachable: never = block.kind;
      return unreachable;
    }
  }
}
