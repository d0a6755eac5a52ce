import type { Principal } from '../auth/principal.js';
import type { Language } from '../errors/catalogue.js';

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
}

declare module 'fastify' {
  interface FastifyRequest {
    gateway: RequestContext;
  }
}
