import { apiRequest } from '../api/api-client';
import type { SignedInUser } from '../api/types';

export interface RegistrationFields {
  username: string;
  password: string;
  /** Only when the gateway asks for invite codes (setting `registration` = `invite`). */
  invite_code?: string;
}

/** `POST /api/auth/register` (admin-api section 15): 201 with the user, signed in as sign-in does. */
export function register(fields: RegistrationFields): Promise<SignedInUser> {
  return apiRequest<SignedInUser>('/auth/register', { method: 'POST', body: fields });
}
