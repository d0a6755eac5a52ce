import { apiRequest } from './api-client';
import { ApiError } from './api-error';
import type { Language, SignedInUser } from './types';

export type SignInCredentials = { username: string; password: string } | { token: string };

/** `POST /api/auth/login`: sets the `gw_session` and `gw_csrf` cookies. */
export function signIn(credentials: SignInCredentials): Promise<SignedInUser> {
  return apiRequest<SignedInUser>('/auth/login', { method: 'POST', body: credentials });
}

export function signOut(): Promise<void> {
  return apiRequest<void>('/auth/logout', { method: 'POST' });
}

/** The signed-in user, or null when there is no session. */
export async function fetchSignedInUser(): Promise<SignedInUser | null> {
  try {
    return await apiRequest<SignedInUser>('/auth/me');
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return null;
    throw error;
  }
}

/** `PATCH /api/me`: a user may change only their password and language. */
export function updateOwnAccount(changes: { language?: Language; password?: string }): Promise<SignedInUser> {
  return apiRequest<SignedInUser>('/me', { method: 'PATCH', body: changes });
}

/** `GET /api/me`: the caller's own account, with its current balance. */
export function fetchOwnAccount(): Promise<SignedInUser> {
  return apiRequest<SignedInUser>('/me');
}
