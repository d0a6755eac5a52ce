import type { Cancellation } from './cancellation.js';
import type { Language } from '../errors/catalogue.js';
import { GatewayError } from '../errors/gateway-error.js';
import { classifyTransportFailure } from './classify-transport-failure.js';
import type { RequestAccount } from './request-account.js';
import type { StreamTransform } from './transforms.js';

export interface StreamRelayOptions {
  transform: StreamTransform;
  firstChunk: Buffer | undefined;
  iterator: AsyncIterator<Buffer>;
  account: RequestAccount;
  cancellation: Cancellation;
  idleTimeoutSeconds: number;
  language: Language;
  requestId: string;
  /** Called once the stream is over, however it ended. */
  onClosed: () => void;
}

/**
 * The client's side of an upstream stream: each upstream chunk goes through the transform and out
 * at once. However the stream ends (done, client gone, idle upstream, broken upstream, the
 * upstream's own error event), the account is finished once, in `finally`, on the usage known by
 * then.
 */
export async function* relayStream(options: StreamRelayOptions): AsyncGenerator<Buffer | string> {
  const { transform, account } = options;
  let error: string | null = null;
  try {
    if (options.firstChunk) {
      account.markFirstByte();
      const out = transform.push(options.firstChunk);
      if (out !== undefined) yield out;
    }
    while (!transform.failure()) {
      const next = await options.iterator.next();
      if (next.done) {
        const rest = transform.end();
        if (rest !== undefined) yield rest;
        break;
      }
      const out = transform.push(next.value);
      if (out !== undefined) yield out;
    }
    const failure = transform.failure();
    switch (failure?.kind) {
      case undefined:
        break;
      case 'broken': {
        const gatewayError = new GatewayError('upstream_stream_broken', { detail: failure.detail });
        error = gatewayError.message;
        yield transform.errorEvent({
          message: clientMessage(gatewayError, options),
          code: gatewayError.code,
          status: gatewayError.status,
        });
        break;
      }
      case 'reported':
        // The client already has the upstream's own error event.
        error = `the upstream sent an error event: ${failure.message}`;
        break;
      default: {
        const unreachable: never = failure;
        return unreachable;
      }
    }
  } catch (caught) {
    if (options.cancellation.aborted) {
      error = abortReason(options.cancellation);
      return;
    }
    const failure = classifyTransportFailure(caught, { stream: true });
    const gatewayError =
      failure.kind === 'timeout'
        ? new GatewayError('upstream_timeout', { seconds: options.idleTimeoutSeconds, limit: failure.limit })
        : new GatewayError('upstream_stream_broken', { detail: failure.detail });
    error = gatewayError.message;
    yield transform.errorEvent({
      message: clientMessage(gatewayError, options),
      code: gatewayError.code,
      status: gatewayError.status,
    });
  } finally {
    if (error === null && options.cancellation.aborted) error = abortReason(options.cancellation);
    await options.iterator.return?.().catch(() => undefined);
    options.onClosed();
    account.finish({
      statusCode: 200,
      charged: true,
      reported: transform.usage(),
      producedText: () => transform.producedText(),
      error,
      describeReply: () => transform.facts?.(),
    });
  }
}

/** The error's text in the caller's language, with the request id to quote to support. */
function clientMessage(error: GatewayError, options: { language: Language; requestId: string }): string {
  return `${error.localizedMessage(options.language)} (request id: ${options.requestId})`;
}

/** Why the stream was cut from our side: the client left, or shutdown ended it. */
function abortReason(cancellation: Cancellation): string {
  const reason: unknown = cancellation.reason;
  return reason instanceof Error ? reason.message : 'client closed the connection';
}
