import type { EventStreamCodec } from '@smithy/eventstream-codec';
import { loadOnFirstUse } from '../../load-on-first-use.js';
import { formatAnthropicStreamError } from '../../protocols/anthropic-messages/format-anthropic-stream-error.js';
import { formatSseEvent } from '../../protocols/sse/sse-event-reader.js';
import { asJsonObject, parseJson } from '../../protocols/wire-json.js';
import { InvokeChunkReader } from './invoke-chunk-reader.js';
import { mapBedrockAnthropicErrorType } from './map-bedrock-anthropic-error-type.js';

export type BedrockStreamMode = 'invoke' | 'converse';

type Frame = ReturnType<EventStreamCodec['decode']>;

const eventStreamCodec =
  loadOnFirstUse<typeof import('@smithy/eventstream-codec')>('@smithy/eventstream-codec');
/**
 * UTF-8 as `Buffer.toString` reads it (a leading BOM kept), for the codec's header names and values
 * and for the payloads: per short string, well under half the cost of a Buffer made to read it.
 */
const utf8 = new TextDecoder('utf-8', { ignoreBOM: true });
const toUtf8 = (bytes: Uint8Array): string => utf8.decode(bytes);
const fromUtf8 = (text: string): Uint8Array => Buffer.from(text, 'utf8');

export interface BedrockStreamFraming {
  /** The SSE text of every frame this chunk completes (empty while a frame is still partial). */
  push(chunk: Buffer): string;
  /** End of input: `incomplete` when bytes of an unfinished frame were left (a cut stream). */
  end(): { incomplete: boolean };
}

/** A frame's prelude: total length, headers length (4 bytes each), then its CRC32. */
const PRELUDE_BYTES = 12;
const MINIMUM_FRAME_BYTES = PRELUDE_BYTES + 4;
/** AWS event-stream messages are at most 16 MiB with headers; more is a broken stream, not a frame to wait for. */
const MAXIMUM_FRAME_BYTES = 16 * 1024 * 1024 + 128 * 1024;

/**
 * AWS event-stream bytes (https://docs.aws.amazon.com/AmazonS3/latest/API/RESTSelectObjectAppendix.html
 * describes the framing) -> SSE text, incrementally: frames may be split anywhere across chunks.
 *
 * `EventStreamCodec` checks and decodes one whole frame (both CRCs, typed headers); gathering a
 * frame's bytes is ours (the codec's `feed` takes whole frames only), read from the length prelude.
 * A frame that fails its checksums, or a length no frame can have, throws: the stream is broken.
 *
 * - `invoke` (`/invoke-with-response-stream` of Claude models): each `chunk` event carries
 *   `{"bytes": "<base64 of one Anthropic stream event>"}` (`PayloadPart`); out goes that event as
 *   the Anthropic API streams it, `event: <type>`. Exception and error frames become Anthropic
 *   `event: error` with the closest Anthropic error type.
 * - `converse` (`/converse-stream`): each event frame as `event: <:event-type>` with its JSON
 *   payload as is; an exception frame as `event: <:exception-type>`, an error frame as
 *   `event: <:error-code>` with `{"message": <:error-message>}`.
 */
export function createBedrockStreamFraming(mode: BedrockStreamMode): BedrockStreamFraming {
  const codec = new (eventStreamCodec().EventStreamCodec)(toUtf8, fromUtf8);
  const chunks = mode === 'invoke' ? new InvokeChunkReader() : undefined;
  let pending: Buffer = Buffer.alloc(0);
  return {
    push(chunk) {
      pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
      let text = '';
      while (pending.length >= 4) {
        const length = pending.readUInt32BE(0);
        if (length < MINIMUM_FRAME_BYTES || length > MAXIMUM_FRAME_BYTES)
          throw new Error(`Bedrock event stream: a frame cannot be ${length} bytes long`);
        if (pending.length < length) break;
        const frame = pending.subarray(0, length);
        pending = pending.subarray(length);
        text += renderFrame(codec.decode(frame), chunks);
      }
      return text;
    },
    end: () => ({ incomplete: pending.length > 0 }),
  };
}

/**
 * One frame as SSE text: in `invoke` mode (`chunks` given), `chunk` events hold one Anthropic
 * event each; other event types (none are defined today) have no Anthropic event to become, and
 * the Anthropic Bedrock SDK drops them too (`eventStreamToSSEResponse` in @anthropic-ai/bedrock-sdk).
 */
function renderFrame(frame: Frame, chunks: InvokeChunkReader | undefined): string {
  const messageType = headerText(frame, ':message-type');
  const body = toUtf8(frame.body);
  switch (messageType) {
    case 'event':
      if (chunks) return headerText(frame, ':event-type') === 'chunk' ? chunks.read(body) : '';
      return formatSseEvent({ event: headerText(frame, ':event-type') ?? 'unknown', data: body });
    case 'exception': {
      const exceptionType = headerText(frame, ':exception-type') ?? 'unknownException';
      return chunks
        ? anthropicError(exceptionType, messageOf(body) ?? body)
        : formatSseEvent({ event: exceptionType, data: body });
    }
    case 'error': {
      // An unmodelled error: `:error-code` and `:error-message` headers, no payload.
      const code = headerText(frame, ':error-code') ?? 'UnknownError';
      const message = headerText(frame, ':error-message') ?? code;
      return chunks
        ? anthropicError(code, message)
        : formatSseEvent({ event: code, data: JSON.stringify({ message }) });
    }
    default:
      throw new Error(`Bedrock event stream: unknown :message-type ${JSON.stringify(messageType)}`);
  }
}

function anthropicError(exceptionType: string, message: string): string {
  return formatAnthropicStreamError({ message, code: mapBedrockAnthropicErrorType(exceptionType) });
}

function headerText(frame: Frame, name: string): string | undefined {
  const header = frame.headers[name];
  return header?.type === 'string' ? header.value : undefined;
}

function messageOf(body: string): string | undefined {
  const message = parseObject(body)?.message;
  return typeof message === 'string' ? message : undefined;
}

function parseObject(text: string): Record<string, unknown> | undefined {
  const parsed = parseJson(text);
  return parsed.ok ? asJsonObject(parsed.value) : undefined;
}
