import { randomUUID } from 'node:crypto';
import { hashPassword, verifyPassword } from '../auth/password-hash.js';
import { GatewayError } from '../errors/gateway-error.js';
import { attemptSubjects, type LoginThrottle } from '../limits/login-throttle.js';
import type { UsersRepository } from '../store/users-repository.js';
import type { AdminAuthenticator } from './admin-authenticator.js';
import { beginThrottledAttempt } from './begin-throttled-attempt.js';
import type { ConsoleIdentity } from './console-identity.js';

export type SignInCredentials = { username: string; password: string } | { token: string };

/**
 * Checks console sign-in credentials (admin-api section 8). Every failure is the same 401,
 * whatever the cause (unknown user, wrong password, no password set, disabled user, wrong admin
 * token), and takes about as long: an unknown user's password is checked against a dummy hash.
 */
export class SignInVerifier {
  private dummyHash: Promise<string> | undefined;

  constructor(
    private readonly options: {
      users: UsersRepository;
      adminAuth: AdminAuthenticator;
      throttle: LoginThrottle;
    },
  ) {}

  async verify(credentials: SignInCredentials, clientIp: string): Promise<ConsoleIdentity> {
    const username = 'username' in credentials ? credentials.username : undefined;
    const subjects = attemptSubjects({ username, clientIp });
    const ticket = await beginThrottledAttempt(this.options.throttle, subjects);
    const identity =
      'token' in credentials
        ? this.verifyAdminToken(credentials.token)
        : await this.verifyPassword(credentials.username, credentials.password);
    if (!identity) throw new GatewayError('invalid_credentials');
    // The username's earlier failures are forgiven once its password is known; the address's are not.
    await this.options.throttle.succeed(
      ticket,
      subjects.filter((subject) => subject.startsWith('username:')),
    );
    return identity;
  }

  private verifyAdminToken(token: string): ConsoleIdentity | undefined {
    return this.options.adminAuth.verify(token) ? { kind: 'root' } : undefined;
  }

  private async verifyPassword(username: string, password: string): Promise<ConsoleIdentity | undefined> {
    const user = await this.options.users.findByUsername(username);
    const stored = user?.passwordHash ?? (await this.dummy());
    const matches = await verifyPassword(password, stored);
    if (!user || user.passwordHash === null || !matches || user.status !== 'enabled') return undefined;
    return { kind: 'user', user };
  }

  /** A hash of a random password, made once: checking against it costs what a real check costs. */
  private dummy(): Promise<string> {
    this.dummyHash ??= hashPassword(randomUUID());
    return this.dummyHash;
  }
}
