import { readPieceDelta } from '../../protocols/anthropic-messages/piece-delta.js';
import { BEDROCK_PADDING, RepeatedTextEvent } from '../../protocols/repeated-text-event.js';
import { formatSseEvent } from '../../protocols/sse/sse-event-reader.js';
import { asJsonObject, asString, parseJson } from '../../protocols/wire-json.js';

/**
 * The `chunk` events of `/invoke-with-response-stream`, each `{"bytes": "<base64 of one Anthropic
 * event>"}` padded with `p` (`PayloadPart`), read into the Anthropic events they carry. A payload
 * that repeats the last one but for its bytes and padding is read by its bytes alone, and an
 * Anthropic delta that repeats the last one but for its piece of text is known to be a
 * `content_block_delta` without a parse (`RepeatedTextEvent`): the Anthropic reader downstream reads
 * it again.
 */
export class InvokeChunkReader {
  private readonly payload = new RepeatedTextEvent([BEDROCK_PADDING]);
  private readonly pieceDelta = new RepeatedTextEvent();

  /**
   * The Anthropic event of one chunk's payload, as the Anthropic API streams it; empty for an event
   * with no `type` (a keep-alive, which the Anthropic Bedrock SDK drops too). Throws on a payload
   * without base64 `bytes`, or bytes that are not JSON: the stream is broken.
   */
  read(body: string): string {
    const data = Buffer.from(this.bytesOf(body), 'base64').toString('utf8');
    if (this.pieceDelta.textOf(data) !== undefined) return formatSseEvent({ event: PIECE_EVENT, data });
    const parsed = parseJson(data);
    if (!parsed.ok) throw new Error(`Bedrock event stream: a chunk that is not JSON (${parsed.error})`);
    const type = asString(asJsonObject(parsed.value)?.type);
    const read = readPieceDelta(parsed.value);
    if (read !== undefined) this.pieceDelta.learn(data, read.member, read.piece);
    return type === undefined ? '' : formatSseEvent({ event: type, data });
  }

  private bytesOf(body: string): string {
    const repeated = this.payload.textOf(body);
    if (repeated !== undefined) return repeated;
    const parsed = parseJson(body);
    const bytes = parsed.ok ? asJsonObject(parsed.value)?.bytes : undefined;
    if (typeof bytes !== 'string')
      throw new Error('Bedrock event stream: a chunk event without base64 `bytes`');
    this.payload.learn(body, 'bytes', bytes);
    return bytes;
  }
}

const PIECE_EVENT = 'content_block_delta';
