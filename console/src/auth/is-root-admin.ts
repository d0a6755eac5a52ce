import type { SignedInUser } from '../api/types';

/**
 * The root admin signed in with the admin token: it has no account of its own (admin-api section
 * 8), so its choices stay in the browser. The gateway shows it as `root: true`, id 0.
 */
export function isRootAdmin(user: SignedInUser): boolean {
  return user.root === true || user.id === null || user.id === undefined || user.id === 0;
}
