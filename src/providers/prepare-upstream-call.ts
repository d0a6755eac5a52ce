import type { Readable } from 'node:stream';
import type { Dispatcher } from 'undici';
import type { OutgoingMultipart } from '../relay/outgoing-multipart.js';
import type { ChannelRecord } from '../store/channels-repository.js';
import type { ProviderDescriptor, StreamFraming, UpstreamEndpoint } from './provider-descriptor.js';

/** One upstream call, ready to send. */
export interface UpstreamCallPlan {
  url: string;
  headers: Record<string, string>;
  body: string | Buffer | Readable;
  /** For a stream framed otherwise than as server-sent events. */
  framing: (() => StreamFraming) | undefined;
}

export interface UpstreamCallRequest {
  provider: ProviderDescriptor;
  channel: Pick<ChannelRecord, 'baseUrl' | 'config'>;
  endpoint: UpstreamEndpoint;
  /** Already mapped through the channel's model mapping. */
  model: string;
  stream: boolean;
  key: string;
  body: Record<string, unknown>;
  /** `body` as bytes already (the client's own): sent as they are when the provider changes nothing. */
  bodyBytes?: Buffer | undefined;
  extraHeaders?: Readonly<Record<string, string>>;
  /** A form sent instead of `body` (speech to text): only to providers that sign nothing. */
  multipart?: OutgoingMultipart | undefined;
  /** The client's query string, for same-protocol calls (`beta=true`). */
  query?: string;
  /**
   * Ends a credential exchange the provider makes first; `signal` is read only then (a relay's
   * `Cancellation` makes its AbortSignal on first use).
   */
  cancellation?: { readonly signal: AbortSignal };
  dispatcher: Dispatcher;
}

/**
 * URL, headers and body bytes of one call to a channel's upstream, the provider's transport
 * patches and credentials applied; undefined when the upstream does not serve `endpoint`, or the
 * channel has no origin. Throws `UpstreamCredentialError` when credentials cannot be had.
 */
export async function prepareUpstreamCall(
  request: UpstreamCallRequest,
): Promise<UpstreamCallPlan | undefined> {
  const { provider, channel } = request;
  const origin = channel.baseUrl ?? provider.defaultBaseUrl(channel.config);
  if (origin === undefined) return undefined;
  const built = provider.buildUrl({
    origin,
    key: request.key,
    config: channel.config,
    endpoint: request.endpoint,
    model: request.model,
    stream: request.stream,
  });
  if (built === undefined) return undefined;
  if (request.multipart && provider.authorize) return undefined;
  const given = { body: request.body, extraHeaders: request.extraHeaders ?? {}, query: request.query ?? '' };
  const payload = provider.adaptPayload
    ? provider.adaptPayload(given, { endpoint: request.endpoint, stream: request.stream })
    : given;
  const query = payload.query ?? given.query;
  const url = query ? `${built}${built.includes('?') ? '&' : '?'}${query}` : built;
  const headers = provider.buildHeaders({
    key: request.key,
    config: channel.config,
    extraHeaders: payload.extraHeaders,
  });
  if (request.multipart) {
    const { multipart } = request;
    headers['content-type'] = multipart.contentType;
    headers['content-length'] = String(multipart.length);
    return { url, headers, body: multipart.bytes(), framing: provider.streamFraming?.(request.endpoint) };
  }
  // A body the gateway cannot serialise is the gateway's failure, thrown before any upstream `try`.
  const body =
    request.bodyBytes && payload.body === request.body ? request.bodyBytes : JSON.stringify(payload.body);
  const authorized = provider.authorize
    ? await provider.authorize({
        url,
        headers,
        body,
        key: request.key,
        config: channel.config,
        signal: request.cancellation?.signal,
        dispatcher: request.dispatcher,
      })
    : headers;
  return { url, headers: authorized, body, framing: provider.streamFraming?.(request.endpoint) };
}

/** Credentials the provider could not obtain (a token exchange refused or unreachable). */
export class UpstreamCredentialError extends Error {
  constructor(
    message: string,
    /** The credential service's status, when it answered. */
    readonly status: number | undefined,
  ) {
    super(message);
    this.name = 'UpstreamCredentialError';
  }
}
