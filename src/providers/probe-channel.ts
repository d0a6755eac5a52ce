import { parseJson } from '../protocols/wire-json.js';
import { request, type Dispatcher } from 'undici';
import type { ChannelRecord } from '../store/channels-repository.js';
import { chooseProbeEndpoint } from './choose-probe-endpoint.js';
import { describeTransportError } from './describe-transport-error.js';
import { sharedKeyRotation, type KeyRotation } from './key-rotation.js';
import { mapUpstreamModel } from './map-upstream-model.js';
import { probeRealtime } from './probe-realtime.js';
import { probeForm, probeRequestBody } from './probe-request-body.js';
import { readBoundedBody } from './read-bounded-body.js';
import { redactKeys } from './redact-keys.js';
import { readUpstreamErrorMessage } from './read-upstream-error-message.js';
import { findProvider } from './registry.js';
import { prepareUpstreamCall, type UpstreamCallPlan } from './prepare-upstream-call.js';
import { upstreamDispatcher } from './upstream-dispatcher.js';

export interface ProbeResult {
  ok: boolean;
  latencyMs: number;
  /** Short readable cause when not ok; never contains one of the channel's keys. */
  error: string | null;
}

export interface ProbeOptions {
  /** Whole request, connect to last body byte. */
  timeoutMs: number;
  /** Probe with this key (one set aside after a refusal, to learn whether it works again). */
  key?: string | undefined;
  /** Without `key`: defaults to the process-wide rotation, so repeated tests go through every key. */
  keyRotation?: KeyRotation;
  /** Defaults to the shared upstream dispatcher. */
  dispatcher?: Dispatcher;
}

const maxBodyBytes = 64 * 1024;

/**
 * Sends a one-token request to the channel's first model (admin-api: `POST /api/channels/{id}/test`,
 * and the health probes of section 7).
 * Upstream failures, timeouts included, are reported in the result, never thrown.
 */
export async function probeChannel(channel: ChannelRecord, options: ProbeOptions): Promise<ProbeResult> {
  const started = performance.now();
  const finish = (error: string | null): ProbeResult => ({
    ok: error === null,
    latencyMs: Math.round(performance.now() - started),
    error: error === null ? null : redactKeys(error, [...channel.keys, options.key ?? '']),
  });

  const provider = findProvider(channel.type);
  if (!provider) return finish(`unknown channel type "${channel.type}"`);
  const publicModel = channel.models[0];
  if (publicModel === undefined) return finish('channel has no models');
  const key =
    options.key ??
    (options.keyRotation ?? sharedKeyRotation).next(channel) ??
    (provider.keyOptional ? '' : undefined);
  if (key === undefined) return finish('channel has no keys');
  const model = mapUpstreamModel(channel, publicModel);
  const endpoint = chooseProbeEndpoint({
    provider,
    declared: channel.endpoints,
    model,
    config: channel.config,
  });
  const body = endpoint && probeRequestBody(endpoint, model);
  if (!endpoint || !body) return finish(`channel type "${channel.type}" cannot be tested`);

  const signal = AbortSignal.timeout(options.timeoutMs);
  const dispatcher = options.dispatcher ?? upstreamDispatcher();
  try {
    let call: UpstreamCallPlan | undefined;
    try {
      call = await prepareUpstreamCall({
        provider,
        channel,
        endpoint,
        model,
        stream: false,
        key,
        body,
        multipart: probeForm(endpoint, model),
        cancellation: { signal },
        dispatcher,
      });
    } catch (error) {
      return finish(`credentials: ${error instanceof Error ? error.message : String(error)}`);
    }
    if (!call) return finish(`channel type "${channel.type}" cannot be tested`);
    if (!isHttpUrl(call.url)) return finish(`invalid base_url: ${call.url}`);
    if (endpoint === 'openai-realtime')
      return finish(
        await probeRealtime({ url: call.url, headers: call.headers, timeoutMs: options.timeoutMs }),
      );
    const response = await request(call.url, {
      method: 'POST',
      headers: call.headers,
      body: call.body,
      dispatcher,
      signal,
      headersTimeout: options.timeoutMs,
      bodyTimeout: options.timeoutMs,
    });
    const text = (await readBoundedBody(response.body, maxBodyBytes)).toString('utf8');
    const status = response.statusCode;
    if (status === 401) provider.forgetCredentials?.({ key, config: channel.config });
    if (status >= 200 && status < 300 && endpoint === 'openai-audio-speech')
      return finish(isAudio(response.headers['content-type']) ? null : `HTTP ${status}: reply is not audio`);
    if (status >= 200 && status < 300)
      return finish(isJson(text) ? null : `HTTP ${status}: reply is not JSON`);
    const message = readUpstreamErrorMessage(text);
    return finish(message ? `HTTP ${status}: ${message}` : `HTTP ${status}`);
  } catch (error) {
    return finish(signal.aborted ? `timed out after ${options.timeoutMs} ms` : describeTransportError(error));
  }
}

function isHttpUrl(value: string): boolean {
  try {
    const { protocol } = new URL(value);
    return protocol === 'http:' || protocol === 'https:';
  } catch {
    return false;
  }
}

function isAudio(contentType: string | string[] | undefined): boolean {
  return typeof contentType === 'string' && contentType.toLowerCase().startsWith('audio/');
}

function isJson(text: string): boolean {
  return parseJson(text).ok;
}
