import { createHash } from 'node:crypto';
import { importPKCS8, type CryptoKey } from 'jose';
import type { Dispatcher } from 'undici';
import { describeTransportError } from '../describe-transport-error.js';
import { postTokenRequest, type FetchToken, type TokenHttpAnswer } from './post-token-request.js';
import { readTokenAnswer } from './read-token-answer.js';
import { parseServiceAccountKey, type ServiceAccountKey } from './service-account-key.js';
import { signJwtBearerAssertion } from './sign-jwt-bearer-assertion.js';
import { VertexTokenError } from './vertex-token-error.js';

export interface VertexTokenSourceOptions {
  /** The HTTP exchange with the token endpoint; default: a POST over undici. */
  fetchToken?: FetchToken;
  /** Milliseconds since the epoch; default `Date.now`. */
  now?: () => number;
  /** Refresh this long before a token expires (default 300), or at half its life when that is sooner. */
  refreshAheadSeconds?: number;
  /** Longest wait for one token request (default 30 s); shared by every caller waiting for it. */
  timeoutMs?: number;
}

export interface VertexTokenRequest {
  /** A channel key: a whole service-account JSON key file. */
  key: string;
  tokenUrl: string;
  /** Stops this caller's wait; a refresh other callers share goes on. */
  signal?: AbortSignal;
  dispatcher?: Dispatcher;
}

interface CachedToken {
  value: string;
  refreshAt: number;
  expiresAt: number;
}

interface TokenEntry {
  current?: CachedToken;
  refreshing?: Promise<string>;
}

interface SigningKey {
  account: ServiceAccountKey;
  privateKey: CryptoKey;
}

const GRANT_TYPE = 'urn:ietf:params:oauth:grant-type:jwt-bearer';

/**
 * Access tokens for service-account keys, by the OAuth 2.0 JWT bearer grant
 * (https://developers.google.com/identity/protocols/oauth2/service-account#httprest). Tokens are
 * cached per key and token URL (under a hash of the key, never the key) and reused until shortly
 * before they expire; concurrent callers for one key share one refresh. A failed refresh is not
 * cached: the next call tries again.
 */
export class VertexTokenSource {
  readonly #fetchToken: FetchToken;
  readonly #now: () => number;
  readonly #refreshAheadMs: number;
  readonly #timeoutMs: number;
  readonly #tokens = new Map<string, TokenEntry>();
  readonly #signingKeys = new Map<string, Promise<SigningKey>>();

  constructor(options: VertexTokenSourceOptions = {}) {
    this.#fetchToken = options.fetchToken ?? postTokenRequest;
    this.#now = options.now ?? Date.now;
    this.#refreshAheadMs = (options.refreshAheadSeconds ?? 300) * 1000;
    this.#timeoutMs = options.timeoutMs ?? 30_000;
  }

  async token(request: VertexTokenRequest): Promise<string> {
    const keyHash = hashKey(request.key);
    const cacheKey = `${keyHash} ${request.tokenUrl}`;
    let entry = this.#tokens.get(cacheKey);
    if (!entry) this.#tokens.set(cacheKey, (entry = {}));
    if (entry.current && this.#now() < entry.current.refreshAt) return entry.current.value;
    const refreshing = entry.refreshing ?? this.#startRefresh(request, keyHash, entry);
    try {
      return await untilAborted(refreshing, request.signal);
    } catch (error) {
      if (request.signal?.aborted) throw error;
      // A refresh ahead of expiry that fails leaves the token it was to replace in use.
      if (entry.current && this.#now() < entry.current.expiresAt) return entry.current.value;
      throw error;
    }
  }

  /** Forgets the cached token of a key (say, after the API refused it): the next call fetches a new one. */
  invalidate(request: Pick<VertexTokenRequest, 'key' | 'tokenUrl'>): void {
    const entry = this.#tokens.get(`${hashKey(request.key)} ${request.tokenUrl}`);
    if (entry) entry.current = undefined;
  }

  #startRefresh(request: VertexTokenRequest, keyHash: string, entry: TokenEntry): Promise<string> {
    const refreshing = this.#refresh(request, keyHash, entry).finally(() => {
      entry.refreshing = undefined;
    });
    // Every waiter may have given up (aborted) before it settles.
    refreshing.catch(() => undefined);
    entry.refreshing = refreshing;
    return refreshing;
  }

  async #refresh(request: VertexTokenRequest, keyHash: string, entry: TokenEntry): Promise<string> {
    const { account, privateKey } = await this.#signingKey(request.key, keyHash);
    const subject = `Vertex token request for ${account.clientEmail} to ${describeUrl(request.tokenUrl)}`;
    const startedAt = this.#now();
    const assertion = await signJwtBearerAssertion({
      account,
      privateKey,
      tokenUrl: request.tokenUrl,
      issuedAtSeconds: Math.floor(startedAt / 1000),
    });
    const body = new URLSearchParams({ grant_type: GRANT_TYPE, assertion }).toString();
    let answer: TokenHttpAnswer;
    try {
      answer = await this.#fetchToken({
        url: request.tokenUrl,
        body,
        signal: AbortSignal.timeout(this.#timeoutMs),
        ...(request.dispatcher && { dispatcher: request.dispatcher }),
      });
    } catch (error) {
      throw new VertexTokenError(`${subject} failed: ${describeTransportError(error)}`, { cause: error });
    }
    const grant = readTokenAnswer(answer, subject);
    const lifetimeMs = grant.expiresInSeconds * 1000;
    entry.current = {
      value: grant.accessToken,
      // Counted from before the request went out, so the token never outlives our idea of it.
      refreshAt: startedAt + lifetimeMs - Math.min(this.#refreshAheadMs, lifetimeMs / 2),
      expiresAt: startedAt + lifetimeMs,
    };
    return grant.accessToken;
  }

  /** The parsed key and its imported private key, once per key. */
  #signingKey(key: string, keyHash: string): Promise<SigningKey> {
    let signingKey = this.#signingKeys.get(keyHash);
    if (!signingKey) {
      signingKey = importSigningKey(key);
      this.#signingKeys.set(keyHash, signingKey);
      signingKey.catch(() => this.#signingKeys.delete(keyHash));
    }
    return signingKey;
  }
}

async function importSigningKey(key: string): Promise<SigningKey> {
  let account: ServiceAccountKey;
  try {
    account = parseServiceAccountKey(key);
  } catch (error) {
    throw new VertexTokenError((error as Error).message, { retryable: false });
  }
  try {
    return { account, privateKey: await importPKCS8(account.privateKey, 'RS256') };
  } catch {
    throw new VertexTokenError(
      `Invalid service-account key of ${account.clientEmail}: "private_key" cannot sign RS256`,
      { retryable: false },
    );
  }
}

function hashKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

/** The URL without credentials, query or fragment, for messages. */
function describeUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.origin}${parsed.pathname}`;
  } catch {
    return 'an invalid token URL';
  }
}

function untilAborted<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(signal.reason as Error);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason as Error);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
