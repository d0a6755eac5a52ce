import { EventStreamCodec } from '@smithy/eventstream-codec';
import { fromUtf8, toUtf8 } from '@smithy/util-utf8';

/**
 * Frames of an AWS event stream as Bedrock sends them: string headers `:message-type`,
 * `:event-type` or `:exception-type`, `:content-type`, and a JSON payload
 * (https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_InvokeModelWithResponseStream.html).
 */
const codec = new EventStreamCodec(toUtf8, fromUtf8);

/**
 * Bedrock pads event payloads with a `p` member of letters so their sizes do not reveal the
 * tokens they carry; clients must ignore it. Its length here follows the payload, deterministic.
 */
function padded(payload: Record<string, unknown>): Record<string, unknown> {
  const letters = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0';
  return { ...payload, p: letters.slice(0, 1 + (JSON.stringify(payload).length % letters.length)) };
}

function frame(headers: Record<string, string>, body: string): Buffer {
  const typed = Object.fromEntries(
    Object.entries(headers).map(([name, value]) => [name, { type: 'string' as const, value }]),
  );
  return Buffer.from(codec.encode({ headers: typed, body: fromUtf8(body) }));
}

/** `:message-type: event`; the payload gets Bedrock's `p` padding unless `pad` is false. */
export function eventFrame(eventType: string, payload: Record<string, unknown>, pad = true): Buffer {
  return eventFrameOfText(eventType, JSON.stringify(pad ? padded(payload) : payload));
}

/** `:message-type: event` with `body` as its payload, byte for byte. */
export function eventFrameOfText(eventType: string, body: string): Buffer {
  return frame(
    { ':event-type': eventType, ':content-type': 'application/json', ':message-type': 'event' },
    body,
  );
}

/** A modelled exception, named in camel case as in the stream's union (`throttlingException`). */
export function exceptionFrame(exceptionType: string, payload: Record<string, unknown>): Buffer {
  return frame(
    { ':exception-type': exceptionType, ':content-type': 'application/json', ':message-type': 'exception' },
    JSON.stringify(payload),
  );
}

/** An unmodelled error: code and message in headers, no payload. */
export function errorFrame(code: string, message: string): Buffer {
  return frame({ ':error-code': code, ':error-message': message, ':message-type': 'error' }, '');
}

/** The payload of a `chunk` event of `/invoke-with-response-stream`: one Anthropic event, base64. */
export function chunkFrame(anthropicEventJson: string): Buffer {
  return eventFrame('chunk', { bytes: Buffer.from(anthropicEventJson, 'utf8').toString('base64') });
}
