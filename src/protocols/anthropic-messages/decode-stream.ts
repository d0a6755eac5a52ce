import type { LossLog } from '../../ir/loss.js';
import type { FinishReason } from '../../ir/reply.js';
import type { IssuedToken } from '../../ir/content.js';
import type { StreamEvent } from '../../ir/stream-event.js';
import { readIssuedToken } from '../issued-token.js';
import type { StreamDecoder } from '../protocol-codec.js';
import type { SseEvent } from '../sse/sse-event-reader.js';
import { notJsonObjectDetail } from '../sse/stream-break.js';
import { AnthropicStreamUsage } from './convert-anthropic-usage.js';
import { decodeAnthropicStreamError } from './anthropic-error-types.js';
import { mapAnthropicFinishReason } from './map-anthropic-finish-reason.js';
import { isJsonObject, parseJson } from '../wire-json.js';
import {
  anthropicStreamEventSchema,
  type AnthropicDeltaRead,
  type AnthropicStreamEventRead,
} from './wire-schemas.js';
import { RepeatedTextEvent } from '../repeated-text-event.js';
import { pieceDelta, readPieceDelta, type PieceDeltaType } from './piece-delta.js';

type BlockKind = 'text' | 'reasoning' | 'tool-call';

interface OpenBlock {
  kind: BlockKind;
  /** Canonical index: blocks are numbered in the order they start. */
  index: number;
  signature?: IssuedToken;
  /** A tool call whose `input` came whole in `content_block_start`, sent if no delta follows. */
  startInput?: string;
  sawDelta: boolean;
}

/**
 * Messages stream events (https://docs.anthropic.com/en/docs/build-with-claude/streaming) ->
 * canonical events. `message_start` opens the response; each `content_block_*` run is one block;
 * `message_delta` brings the stop reason and cumulative usage; `message_stop` finishes; `error`
 * ends the stream with an `error`, and an event that is not a JSON object breaks it. Server tool
 * blocks have no canonical stream event and are dropped with a loss. A delta that repeats the
 * last one but for its text is read by its text alone (`RepeatedTextEvent`), without the event's
 * parse and schema check.
 */
export function createAnthropicStreamDecoder(losses: LossLog): StreamDecoder {
  return new AnthropicStreamDecoder(losses);
}

class AnthropicStreamDecoder implements StreamDecoder {
  private phase: 'before-start' | 'streaming' | 'done' = 'before-start';
  /** Open blocks by Anthropic index; `null` marks a block that has no canonical form. */
  private readonly open = new Map<number, OpenBlock | null>();
  private nextIndex = 0;
  private readonly usage = new AnthropicStreamUsage();
  private finishReason: FinishReason | undefined;
  private brokenBy: string | undefined;
  private readonly repeated = new RepeatedTextEvent();
  /** The block index and delta type of the event `repeated` learnt. */
  private repeatedIndex = 0;
  private repeatedType: PieceDeltaType = 'text_delta';

  constructor(private readonly losses: LossLog) {}

  push(event: SseEvent): StreamEvent[] {
    if (this.phase === 'done') return [];
    const piece = this.repeated.textOf(event.data);
    if (piece !== undefined) return this.blockDelta(this.repeatedIndex, pieceDelta(this.repeatedType, piece));
    const parsed = parseJson(event.data);
    const read = parsed.ok ? anthropicStreamEventSchema.safeParse(parsed.value) : undefined;
    const data = read?.success ? read.data : undefined;
    if (!data) {
      this.phase = 'done';
      this.brokenBy = notJsonObjectDetail(event.data);
      return [];
    }
    const type = data.type ?? event.event;
    switch (type) {
      case 'message_start':
        return this.start(data.message);
      case 'content_block_start':
        return [...this.ensureStarted(), ...this.blockStart(data)];
      case 'content_block_delta':
        this.learn(event.data, data);
        return [...this.ensureStarted(), ...this.blockDelta(data.index, data.delta)];
      case 'content_block_stop':
        return [...this.ensureStarted(), ...this.blockStop(data.index)];
      case 'message_delta': {
        const stopReason = data.delta?.stop_reason;
        if (stopReason !== undefined && stopReason !== null)
          this.finishReason = mapAnthropicFinishReason(stopReason);
        this.usage.delta(data.usage);
        return this.ensureStarted();
      }
      case 'message_stop':
        return [...this.ensureStarted(), ...this.finish()];
      case 'error':
        this.phase = 'done';
        return [decodeAnthropicStreamError(data.error)];
      default:
        // `ping` and event types added later carry nothing to convert.
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

  private start(message: AnthropicStreamEventRead['message']): StreamEvent[] {
    if (this.phase !== 'before-start') return [];
    this.phase = 'streaming';
    this.usage.start(message?.usage);
    return [
      {
        type: 'response-start',
        id: message?.id ?? '',
        model: message?.model ?? '',
        created: Math.floor(Date.now() / 1000),
      },
    ];
  }

  /** A stream that skipped `message_start` still opens with `response-start` (the grammar's first event). */
  private ensureStarted(): StreamEvent[] {
    return this.phase === 'before-start' ? this.start(undefined) : [];
  }

  private blockStart(data: AnthropicStreamEventRead): StreamEvent[] {
    const anthropicIndex = data.index;
    const block = data.content_block;
    if (anthropicIndex === undefined || !block || this.open.has(anthropicIndex)) return [];
    const events: StreamEvent[] = [];
    const open = (kind: BlockKind): OpenBlock => {
      const opened: OpenBlock = { kind, index: this.nextIndex, sawDelta: false };
      this.nextIndex += 1;
      this.open.set(anthropicIndex, opened);
      return opened;
    };
    switch (block.type) {
      case 'text': {
        const { index } = open('text');
        events.push({ type: 'text-start', index });
        if (block.text) events.push({ type: 'text-delta', index, text: block.text });
        break;
      }
      case 'thinking': {
        const opened = open('reasoning');
        events.push({ type: 'reasoning-start', index: opened.index });
        if (block.thinking)
          events.push({ type: 'reasoning-delta', index: opened.index, text: block.thinking });
        if (block.signature) opened.signature = readIssuedToken(block.signature, 'anthropic').token;
        break;
      }
      case 'redacted_thinking': {
        const { index } = open('reasoning');
        const redactedData = readIssuedToken(block.data ?? '', 'anthropic').token;
        events.push({ type: 'reasoning-start', index, redactedData });
        break;
      }
      case 'tool_use': {
        const opened = open('tool-call');
        events.push({
          type: 'tool-call-start',
          index: opened.index,
          id: block.id ?? '',
          name: block.name ?? '',
        });
        if (isJsonObject(block.input) && Object.keys(block.input).length > 0)
          opened.startInput = JSON.stringify(block.input);
        break;
      }
      default:
        this.open.set(anthropicIndex, null);
        this.losses.dropped(
          `content[${anthropicIndex}]`,
          `a streamed ${block.type ?? 'unknown'} block has no canonical stream event`,
        );
    }
    return events;
  }

  /**
   * Learns a delta event typed by its own `type` whose piece of text is a string: an event equal to
   * it but for that string is the same delta with another piece.
   */
  private learn(source: string, data: AnthropicStreamEventRead): void {
    const read = readPieceDelta(data);
    if (read === undefined || data.index === undefined) return;
    this.repeated.learn(source, read.member, read.piece);
    this.repeatedIndex = data.index;
    this.repeatedType = read.type;
  }

  private blockDelta(
    anthropicIndex: number | undefined,
    delta: AnthropicDeltaRead | undefined,
  ): StreamEvent[] {
    const block = anthropicIndex === undefined ? undefined : this.open.get(anthropicIndex);
    if (!block || !delta) return [];
    const { index } = block;
    switch (delta.type) {
      case 'text_delta': {
        const text = delta.text;
        return block.kind === 'text' && text ? [{ type: 'text-delta', index, text }] : [];
      }
      case 'thinking_delta': {
        const text = delta.thinking;
        return block.kind === 'reasoning' && text ? [{ type: 'reasoning-delta', index, text }] : [];
      }
      case 'signature_delta': {
        const signature = delta.signature;
        // The signature arrives whole, just before the block ends; like the SDK, the last one wins.
        if (block.kind === 'reasoning' && signature)
          block.signature = readIssuedToken(signature, 'anthropic').token;
        return [];
      }
      case 'input_json_delta': {
        const json = delta.partial_json;
        if (block.kind !== 'tool-call' || !json) return [];
        block.sawDelta = true;
        return [{ type: 'tool-call-delta', index, argumentsDelta: json }];
      }
      case 'citations_delta':
        this.losses.dropped(
          `content[${anthropicIndex}].citations`,
          'streamed citations have no canonical stream event',
        );
        return [];
      default:
        return [];
    }
  }

  private blockStop(anthropicIndex: number | undefined): StreamEvent[] {
    if (anthropicIndex === undefined || !this.open.has(anthropicIndex)) return [];
    const block = this.open.get(anthropicIndex);
    this.open.delete(anthropicIndex);
    return block ? closeBlock(block) : [];
  }

  /** Closes what is still open and finishes; a stream cut before its stop reason finishes as `other`. */
  private finish(): StreamEvent[] {
    this.phase = 'done';
    const events: StreamEvent[] = [];
    for (const block of this.open.values()) if (block) events.push(...closeBlock(block));
    this.open.clear();
    const usage = this.usage.current();
    events.push({
      type: 'finish',
      finishReason: this.finishReason ?? { unified: 'other', raw: undefined },
      ...(usage ? { usage } : {}),
    });
    return events;
  }
}

function closeBlock(block: OpenBlock): StreamEvent[] {
  switch (block.kind) {
    case 'text':
      return [{ type: 'text-end', index: block.index }];
    case 'reasoning':
      return [
        {
          type: 'reasoning-end',
          index: block.index,
          ...(block.signature ? { signature: block.signature } : {}),
        },
      ];
    case 'tool-call': {
      const events: StreamEvent[] = [];
      if (!block.sawDelta && block.startInput)
        events.push({ type: 'tool-call-delta', index: block.index, argumentsDelta: block.startInput });
      events.push({ type: 'tool-call-end', index: block.index });
      return events;
    }
    default: {
      const unreachable: never = block.kind;
      return unreachable;
    }
  }
}
