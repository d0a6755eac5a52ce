import type { FastifyInstance, FastifyReply, FastifyRequest, RouteShorthandOptions } from 'fastify';
import type { KeySources } from '../../auth/extract-key.js';
import { GatewayError } from '../../errors/gateway-error.js';
import { handleRelay } from '../../relay/handle-relay.js';
import { relayEndpoints, type RelayEndpoint } from '../../relay/relay-endpoint.js';
import type { GatewayServices } from '../../services.js';
import {
  authenticateWith,
  BEARER_ONLY,
  MESSAGES_KEYS,
  principalOf,
  V1BETA_KEYS,
} from '../authenticate-hook.js';
import type { Principal } from '../../auth/principal.js';
import { BodyCapture } from '../../relay/body-capture.js';
import { parseJson } from '../read-body.js';
import { renderError, toGatewayError } from '../render-error.js';
import type { RelayEnd } from '../request-context.js';
import { abortWhenClientLeaves, sendRelayResponse } from '../send-relay-response.js';

/** The JSON object of a relay request body; anything else is an invalid JSON request body. */
function readJsonObject(request: FastifyRequest): Record<string, unknown> {
  const parsed = parseJson(request.body as Buffer | undefined);
  if (!parsed.ok) throw new GatewayError('invalid_json', { detail: parsed.detail });
  const { value } = parsed;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new GatewayError('invalid_json', { detail: 'the body must be a JSON object' });
  }
  return value as Record<string, unknown>;
}

/** What a relay route read of its request: the body, its bytes, and the model it names. */
export interface ReadRelayRequest {
  body: Record<string, unknown>;
  bodyBytes: Buffer;
  requestedModel: unknown;
}

/**
 * Relays one request already read (`relayRoute` reads JSON; the speech-to-text routes a form):
 * the relay itself, the reply, and the request's stored bodies where its key stores them.
 */
export async function relayReadRequest(
  services: GatewayServices,
  endpoint: RelayEndpoint,
  request: FastifyRequest,
  reply: FastifyReply,
  read: ReadRelayRequest,
): Promise<void> {
  const end: RelayEnd = { outcome: undefined };
  request.gateway.relay = end;
  const principal = principalOf(request);
  const bodies = bodyCaptureFor(services, principal, request, read.bodyBytes);
  const relayed = handleRelay(services, {
    endpoint,
    principal,
    requestedModel: read.requestedModel,
    body: read.body,
    bodyBytes: read.bodyBytes,
    requestId: request.id,
    language: request.gateway.language,
    startedAt: request.gateway.startedAt,
    cancellation: abortWhenClientLeaves(reply),
    headers: request.headers,
    query: forwardedQuery(request.url),
    bodies,
    onModelSelected: () => {
      request.gateway.errorShape = endpoint.errorShape;
    },
    onFinished: (outcome) => {
      end.outcome = outcome;
      end.whenEnded?.();
    },
  });
  if (!bodies) return sendRelayResponse(reply, await relayed);
  try {
    await sendRelayResponse(reply, await relayed, bodies);
  } catch (error) {
    // What the error handler sends for it.
    bodies.add(JSON.stringify(renderError(toGatewayError(error), request.gateway).body));
    throw error;
  } finally {
    const stored = bodies.stored();
    if (stored) services.ledger.logBody(stored);
  }
}

/** Every relaying endpoint of client-api section 4, families A, B and C. */
export function registerRelayRoutes(app: FastifyInstance, services: GatewayServices): void {
  const relay = (
    endpoint: RelayEndpoint,
    modelOf: (request: FastifyRequest, body: Record<string, unknown>) => unknown,
  ) =>
    async function relayRequest(request: FastifyRequest, reply: FastifyReply) {
      const body = readJsonObject(request);
      const bodyBytes = request.body as Buffer;
      return relayReadRequest(services, endpoint, request, reply, {
        body,
        bodyBytes,
        requestedModel: modelOf(request, body),
      });
    };
  const bodyModel = (_request: FastifyRequest, body: Record<string, unknown>) => body.model;
  const group = (sources: KeySources): RouteShorthandOptions => ({
    onRequest: authenticateWith(services.principals, sources),
  });

  const familyA: [string, RelayEndpoint][] = [
    ['/v1/chat/completions', relayEndpoints.chatCompletions],
    ['/v1/responses', relayEndpoints.responses],
    ['/v1/responses/compact', relayEndpoints.responsesCompact],
    ['/v1/alpha/search', relayEndpoints.alphaSearch],
    ['/v1/images/generations', relayEndpoints.imageGenerations],
    ['/v1/embeddings', relayEndpoints.embeddings],
    ['/v1/rerank', relayEndpoints.rerank],
    ['/v1/audio/speech', relayEndpoints.speech],
    ['/v1/video/generations', relayEndpoints.video],
    ['/v1/videos', relayEndpoints.video],
  ];
  for (const [path, endpoint] of familyA) app.post(path, group(BEARER_ONLY), relay(endpoint, bodyModel));

  app.post('/v1/messages', group(MESSAGES_KEYS), relay(relayEndpoints.messages, bodyModel));

  // `{model}:{method}` is one path segment; methods the gateway does not offer are unknown URLs.
  // A map, not an object: a method named `constructor` or `__proto__` must not find a prototype member.
  const geminiMethods = new Map<string, RelayEndpoint>([
    ['generateContent', relayEndpoints.generateContent],
    ['streamGenerateContent', relayEndpoints.streamGenerateContent],
    ['embedContent', relayEndpoints.geminiEmbedContent],
    ['batchEmbedContents', relayEndpoints.geminiBatchEmbedContents],
  ]);
  const geminiTarget = (request: FastifyRequest) => {
    const segment = (request.params as { target: string }).target;
    const colon = segment.lastIndexOf(':');
    const endpoint = colon < 0 ? undefined : geminiMethods.get(segment.slice(colon + 1));
    return { model: segment.slice(0, colon), endpoint };
  };
  app.post('/v1beta/models/:target', {
    onRequest: [
      async function rejectUnknownGeminiMethod(request) {
        if (!geminiTarget(request).endpoint) {
          throw new GatewayError('invalid_url', {
            method: request.method,
            path: request.url.split('?')[0] ?? '',
          });
        }
      },
      authenticateWith(services.principals, V1BETA_KEYS),
    ],
    handler: async function relayGemini(request, reply) {
      const { model, endpoint } = geminiTarget(request);
      return relay(endpoint as RelayEndpoint, () => model)(request, reply);
    },
  });
}

/**
 * The capture of the request's bodies when its key stores them (admin-api section 12): the key's
 * `log_bodies`, or its group's when the key's is null.
 */
function bodyCaptureFor(
  services: GatewayServices,
  principal: Principal,
  request: FastifyRequest,
  requestBody: Buffer,
): BodyCapture | undefined {
  if (!(principal.key.logBodies ?? services.catalog.groupLogsBodies(principal.group))) return undefined;
  const settings = services.settings.get();
  return new BodyCapture({
    requestId: request.id,
    requestBody,
    maxBytes: settings.body_log_max_bytes,
    redactPii: settings.redact_pii !== 'off',
  });
}

/** The query string as the client sent it, less what only the gateway reads (`key`, `alt`). */
function forwardedQuery(url: string): string {
  const start = url.indexOf('?');
  if (start < 0) return '';
  const parameters = new URLSearchParams(url.slice(start + 1));
  parameters.delete('key');
  parameters.delete('alt');
  return parameters.toString();
}
