import { Agent } from 'undici';

export interface UpstreamDispatcherOptions {
  /** TCP and TLS handshake. */
  connectTimeoutMs: number;
  /** Until the response headers arrive: a non-streamed reply sends them only once generation ends. */
  headersTimeoutMs: number;
  /** Longest silence between two body chunks. */
  bodyTimeoutMs: number;
  /** How long an idle pooled connection is kept. */
  keepAliveTimeoutMs: number;
  /** Upper bound per origin; null: unbounded. */
  connectionsPerOrigin: number | null;
}

export const defaultUpstreamDispatcherOptions: UpstreamDispatcherOptions = {
  connectTimeoutMs: 10_000,
  headersTimeoutMs: 300_000,
  bodyTimeoutMs: 300_000,
  keepAliveTimeoutMs: 30_000,
  connectionsPerOrigin: null,
};

/** An undici Agent: one keep-alive pool per upstream origin. */
export function createUpstreamDispatcher(options: Partial<UpstreamDispatcherOptions> = {}): Agent {
  const settings = { ...defaultUpstreamDispatcherOptions, ...options };
  return new Agent({
    connect: { timeout: settings.connectTimeoutMs },
    headersTimeout: settings.headersTimeoutMs,
    bodyTimeout: settings.bodyTimeoutMs,
    keepAliveTimeout: settings.keepAliveTimeoutMs,
    keepAliveMaxTimeout: Math.max(settings.keepAliveTimeoutMs, 60_000),
    connections: settings.connectionsPerOrigin,
  });
}

let shared: Agent | undefined;

/** The one dispatcher every upstream request of this process goes through. */
export function upstreamDispatcher(): Agent {
  shared ??= createUpstreamDispatcher();
  return shared;
}

/** Replaces the shared dispatcher (settings changed); requests in flight finish on the old one. */
export function configureUpstreamDispatcher(options: Partial<UpstreamDispatcherOptions>): void {
  const previous = shared;
  shared = createUpstreamDispatcher(options);
  void previous?.close();
}

/** Lets requests in flight finish, then closes every pooled connection (shutdown). */
export async function closeUpstreamDispatcher(): Promise<void> {
  const previous = shared;
  shared = undefined;
  await previous?.close();
}
