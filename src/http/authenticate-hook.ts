import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { authenticate } from '../auth/authenticate.js';
import { extractKey, type KeySources } from '../auth/extract-key.js';
import type { PrincipalCache } from '../auth/principal-cache.js';
import { GatewayError } from '../errors/gateway-error.js';
import type { Principal } from '../auth/principal.js';

/**
 * An `onRequest` hook for a route group that reads keys from the given places (client-api section
 * 5). A callback hook, not an async one: a key the cache holds costs no promise and no extra turn.
 */
export function authenticateWith(principals: PrincipalCache, sources: KeySources) {
  return function authenticateRequest(
    request: FastifyRequest,
    _reply: FastifyReply,
    done: HookHandlerDoneFunction,
  ): void {
    const found = authenticate(principals, {
      rawKey: extractKey(request, sources),
      clientIp: request.gateway.clientIp,
    });
    if (!(found instanceof Promise)) {
      admitted(request, found);
      return done();
    }
    found.then((principal) => {
      admitted(request, principal);
      done();
    }, done);
  };
}

function admitted(request: FastifyRequest, principal: Principal): void {
  request.gateway.principal = principal;
  if (principal.user.language) request.gateway.language = principal.user.language;
}

/** The principal an authenticated route's hook stored. */
export function principalOf(request: FastifyRequest): Principal {
  const principal = request.gateway.principal;
  if (!principal) throw new GatewayError('invalid_token');
  return principal;
}

/** Bearer only: every path accepts `Authorization`. */
export const BEARER_ONLY: KeySources = { xApiKey: false, googleKey: false };
/** Paths containing `/v1/messages`. */
export const MESSAGES_KEYS: KeySources = { xApiKey: true, googleKey: false };
/** `/v1/models`: `x-api-key`, `x-goog-api-key` and `?key=` as well. */
export const V1_MODELS_KEYS: KeySources = { xApiKey: true, googleKey: true };
/** Paths starting with `/v1beta/models` or `/v1beta/openai/models`. */
export const V1BETA_KEYS: KeySources = { xApiKey: false, googleKey: true };
