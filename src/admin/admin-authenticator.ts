import { randomBytes } from 'node:crypto';
import { hashesEqual, hashKey } from '../auth/hash-key.js';
import type { KeyValueRepository } from '../store/key-value-repository.js';

const ROOT_TOKEN_HASH = 'root_admin_token_hash';

/** Checks the root admin token; only its hash is ever held or stored. */
export class AdminAuthenticator {
  private constructor(private readonly tokenHash: string) {}

  /**
   * The token comes from `GATEWAY_ADMIN_TOKEN`; without it, the first start generates one, stores
   * its hash and hands the token back once so it can be printed.
   */
  static async initialize(options: {
    systemState: KeyValueRepository;
    environmentToken: string | undefined;
  }): Promise<{ authenticator: AdminAuthenticator; generatedToken: string | undefined }> {
    if (options.environmentToken) {
      return {
        authenticator: new AdminAuthenticator(hashKey(options.environmentToken)),
        generatedToken: undefined,
      };
    }
    const stored = await options.systemState.get(ROOT_TOKEN_HASH);
    if (stored) return { authenticator: new AdminAuthenticator(stored), generatedToken: undefined };
    const token = `gw-admin-${randomBytes(24).toString('base64url')}`;
    const written = await options.systemState.putIfAbsent(ROOT_TOKEN_HASH, hashKey(token));
    if (!written) {
      // Another instance generated the token first; it printed it.
      const winner = await options.systemState.get(ROOT_TOKEN_HASH);
      return { authenticator: new AdminAuthenticator(winner ?? ''), generatedToken: undefined };
    }
    return { authenticator: new AdminAuthenticator(hashKey(token)), generatedToken: token };
  }

  /**
   * Names the current token without revealing it or its stored hash: root console sessions record
   * it, so replacing the token ends the sessions signed in with the old one.
   */
  fingerprint(): string {
    return hashKey(`session:${this.tokenHash}`);
  }

  verify(presented: string | undefined): boolean {
    if (!presented || !this.tokenHash) return false;
    return hashesEqual(hashKey(presented), this.tokenHash);
  }
}
