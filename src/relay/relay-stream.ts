import { GatewayError } from '../errors/gateway-error.js';
import type { Language } from '../errors/catalogue.js';
import type { PassthroughCodec, StreamTap } from '../protocols/passthrough-codec.js';
import { formatSseEvent, SseEventReader } from '../protocols/sse/sse-event-reader.js';
import { describeTransportError } from '../providers/describe-transport-error.js';
import type { RequestAccount } from './request-account.js';

export interface StreamRelayOptions {
  codec: PassthroughCodec;
  tap: StreamTap;
  hideUsageEvents: boolean;
  firstChunk: Buffer | undefined;
  iterator: AsyncIterator<Buffer>;
  account: RequestAccount;
  signal: AbortSignal;
  idleTimeoutSeconds: number;
  language: Language;
  requestId: string;
}

const IDLE_TIMEOUT_CODE = 'UND_ERR_BODY_TIMEOUT';

/**
 * The client's side of a passthrough stream. Upstream bytes go out as they arrive (re-framed only
 * when usage events must be hidden), while the tap reads usage on the side. However the stream ends
 * (done, client gone, idle upstream, broken upstream), the account is finished once, in `finally`.
 */
export async function* relayStream(options: StreamRelayOptions): AsyncGenerator<Buffer | string> {
  const { tap, account } = options;
  let pending: string[] = [];
  const reader = new SseEventReader((event) => {
    const visible = tap.onEvent(event);
    if (options.hideUsageEvents && visible) pending.push(formatSseEvent(event));
  });
  const pass = (chunk: Buffer): Buffer | string | undefined => {
    reader.push(chunk);
    if (!options.hideUsageEvents) return chunk;
    const out = pending.join('');
    pending = [];
    return out.length > 0 ? out : undefined;
  };

  let error: string | null = null;
  try {
    if (options.firstChunk) {
      account.markFirstByte();
      const out = pass(options.firstChunk);
      if (out !== undefined) yield out;
    }
    for (;;) {
      const next = await options.iterator.next();
      if (next.done) break;
      const out = pass(next.value);
      if (out !== undefined) yield out;
    }
    reader.end();
    if (pending.length > 0) yield pending.join('');
  } catch (caught) {
    if (options.signal.aborted) {
      error = abortReason(options.signal);
      return;
    }
    const idle = (caught as { code?: string }).code === IDLE_TIMEOUT_CODE;
    const gatewayError = idle
      ? new GatewayError('stream_idle_timeout', { seconds: options.idleTimeoutSeconds })
      : new GatewayError('upstream_stream_broken', { detail: describeTransportError(caught) });
    error = gatewayError.message;
    const message = `${gatewayError.localizedMessage(options.language)} (request id: ${options.requestId})`;
    yield options.codec.streamErrorEvent({ message, code: gatewayError.code });
  } finally {
    if (error === null && options.signal.aborted) error = abortReason(options.signal);
    await options.iterator.return?.().catch(() => undefined);
    account.finish({
      statusCode: 200,
      charged: true,
      reported: tap.usage(),
      producedText: () => tap.producedText(),
      error,
    });
  }
}

/** Why the stream was cut from our side: the client left, or shutdown ended it. */
function abortReason(signal: AbortSignal): string {
  const reason: unknown = signal.reason;
  return reason instanceof Error ? reason.message : 'client closed the connection';
}
