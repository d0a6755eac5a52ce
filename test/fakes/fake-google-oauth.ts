/**
 * A fake of Google's OAuth 2.0 token endpoint for service accounts, on 127.0.0.1:
 *
 *   const oauth = await startFakeGoogleOAuth({ tokenLifetimeSeconds: 60 });
 *   const account = makeTestServiceAccount({ tokenUri: oauth.tokenUrl });
 *   oauth.register(account);
 *   oauth.tokenUrl            // 'http://127.0.0.1:<port>/token': a vertex channel's `token_url`
 *   oauth.tokenRequests       // every request, with the claims read and the outcome
 *   oauth.issuedCount()       // tokens issued so far
 *   oauth.lookUp(token)       // the live token's account and scopes; undefined when unknown or expired
 *   oauth.script({ type: 'error', status: 503 }, { type: 'reset' }, { type: 'issue', delayMs: 50 })
 *                             // one step per coming request; then normal answers again
 *
 * It answers the JWT bearer grant as Google does
 * (https://developers.google.com/identity/protocols/oauth2/service-account#httprest): checks in
 * `check-jwt-bearer-assertion.ts`, `{access_token, expires_in, token_type}` on success,
 * `{error, error_description}` otherwise. Tokens are opaque and live `tokenLifetimeSeconds`.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  checkJwtBearerAssertion,
  type KnownServiceAccount,
  type OAuthRefusal,
} from './check-jwt-bearer-assertion.js';

export interface FakeGoogleOAuthOptions {
  accounts?: KnownServiceAccount[];
  /** `expires_in` of every token issued; default 3599, as Google answers. */
  tokenLifetimeSeconds?: number;
  /** Milliseconds since the epoch; default `Date.now`. Tests that move time move it here too. */
  now?: () => number;
  /** Audiences accepted besides the fake's own token URL (say, Google's, for a client that hard-codes it). */
  extraAudiences?: string[];
}

export type FakeOAuthStep = { delayMs?: number } & (
  | { type: 'issue' }
  | { type: 'error'; status: number; error?: string; errorDescription?: string }
  | { type: 'reset' }
);

export interface TokenRequestRecord {
  headers: IncomingMessage['headers'];
  form: URLSearchParams;
  /** The assertion's claims and header, when it was checked. */
  claims?: Record<string, unknown>;
  header?: Record<string, unknown>;
  outcome: { issued: string } | OAuthRefusal | { reset: true };
}

export interface IssuedToken {
  clientEmail: string;
  scopes: string[];
  expiresAt: number;
}

export interface FakeGoogleOAuth {
  origin: string;
  tokenUrl: string;
  tokenRequests: TokenRequestRecord[];
  issuedCount(): number;
  register(account: KnownServiceAccount): void;
  lookUp(token: string): IssuedToken | undefined;
  /** Forgets every token issued, as a revoked key would. */
  revokeAll(): void;
  script(...steps: FakeOAuthStep[]): void;
  clear(): void;
  close(): Promise<void>;
}

const JWT_BEARER = 'urn:ietf:params:oauth:grant-type:jwt-bearer';

export async function startFakeGoogleOAuth(options: FakeGoogleOAuthOptions = {}): Promise<FakeGoogleOAuth> {
  const now = options.now ?? Date.now;
  const lifetime = options.tokenLifetimeSeconds ?? 3599;
  const accounts = new Map<string, KnownServiceAccount>();
  for (const account of options.accounts ?? []) accounts.set(account.clientEmail, account);
  const tokens = new Map<string, IssuedToken>();
  const tokenRequests: TokenRequestRecord[] = [];
  const queue: FakeOAuthStep[] = [];
  let tokenUrl = '';
  let counter = 0;

  async function handle(incoming: IncomingMessage, response: ServerResponse): Promise<void> {
    const form = await readForm(incoming);
    const record: TokenRequestRecord = { headers: incoming.headers, form, outcome: { reset: true } };
    const path = new URL(incoming.url ?? '/', 'http://fake.invalid').pathname;
    if (incoming.method !== 'POST' || path !== '/token')
      return sendJson(response, 404, { error: 'Not Found' });
    tokenRequests.push(record);
    const step = queue.shift();
    if (step?.delayMs) await sleep(step.delayMs);
    if (step?.type === 'reset') return void incoming.socket.resetAndDestroy();
    const outcome: { issued: string } | OAuthRefusal =
      step?.type === 'error'
        ? {
            status: step.status,
            error: step.error ?? (step.status >= 500 ? 'internal_failure' : 'invalid_request'),
            description: step.errorDescription ?? `Fake token endpoint error ${step.status}`,
          }
        : exchange(form, record);
    record.outcome = outcome;
    if (!('issued' in outcome))
      return sendJson(response, outcome.status, {
        error: outcome.error,
        error_description: outcome.description,
      });
    sendJson(response, 200, { access_token: outcome.issued, expires_in: lifetime, token_type: 'Bearer' });
  }

  function exchange(form: URLSearchParams, record: TokenRequestRecord): { issued: string } | OAuthRefusal {
    const grantType = form.get('grant_type') ?? '';
    if (grantType !== JWT_BEARER)
      return {
        status: 400,
        error: 'unsupported_grant_type',
        description: `Invalid grant_type: ${grantType}`,
      };
    const assertion = form.get('assertion');
    if (!assertion)
      return { status: 400, error: 'invalid_request', description: 'Missing required parameter: assertion' };
    const checked = checkJwtBearerAssertion({
      assertion,
      accounts,
      audiences: [tokenUrl, ...(options.extraAudiences ?? [])],
      nowSeconds: Math.floor(now() / 1000),
    });
    if ('error' in checked) return checked;
    record.claims = checked.claims;
    record.header = checked.header;
    const token = `ya29.c.fake${String(++counter).padStart(4, '0')}-${randomBytes(12).toString('base64url')}`;
    tokens.set(token, {
      clientEmail: checked.account.clientEmail,
      scopes: checked.scopes,
      expiresAt: now() + lifetime * 1000,
    });
    return { issued: token };
  }

  const server = createServer((incoming, response) => {
    handle(incoming, response).catch((error: unknown) => {
      if (!response.headersSent)
        sendJson(response, 500, { error: 'internal_failure', error_description: String(error) });
      else response.destroy();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  tokenUrl = `${origin}/token`;

  return {
    origin,
    tokenUrl,
    tokenRequests,
    issuedCount: () => tokenRequests.filter((record) => 'issued' in record.outcome).length,
    register: (account) => void accounts.set(account.clientEmail, account),
    lookUp(token) {
      const issued = tokens.get(token);
      return issued && now() < issued.expiresAt ? issued : undefined;
    },
    revokeAll: () => tokens.clear(),
    script: (...steps) => void queue.push(...steps),
    clear() {
      tokenRequests.length = 0;
      queue.length = 0;
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

async function readForm(incoming: IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  for await (const chunk of incoming) chunks.push(chunk as Buffer);
  const type = incoming.headers['content-type'] ?? '';
  // Google reads the grant as a form; any other body holds no grant type.
  if (!type.startsWith('application/x-www-form-urlencoded')) return new URLSearchParams();
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

function sendJson(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'cache-control': 'no-cache, no-store, max-age=0, must-revalidate',
  });
  response.end(JSON.stringify(body));
}
