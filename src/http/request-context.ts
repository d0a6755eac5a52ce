import type { Principal } from '../auth/principal.js';
import type { Language } from '../errors/catalogue.js';
import type { RequestOutcome } from '../relay/relay-observer.js';

/** Which body shape errors take: family A (also used by family C) or family B (client-api section 7). */
export type ErrorShape = 'openai' | 'anthropic';

/** What travels between hooks and handlers of one request. */
export interface RequestContext {
  requestId: string;
  clientIp: string;
  /** Language from the account when known, else from `Accept-Language`. */
  language: Language;
  errorShape: ErrorShape;
  principal: Principal | undefined;
  startedAt: number;
  /** Set for relayed requests: how the relay ended the request, for the access log. */
  relay?: RelayEnd | undefined;
}

/**
 * A relayed request's end as the access log reads it. A client that leaves closes the connection
 * before the relay has finished the request: the log line then waits for `outcome`.
 */
export interface RelayEnd {
  outcome: RequestOutcome | undefined;
  /** Called once `outcome` is set. */
  whenEnded?: (() => void) | undefined;
}

declare module 'fastify' {
  interface FastifyRequest {
    gateway: RequestContext;
  }
}
