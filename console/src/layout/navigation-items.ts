import type { Role } from '../api/types';

export type NavigationKey =
  | 'dashboard'
  | 'channels'
  | 'models'
  | 'virtualModels'
  | 'guardrails'
  | 'users'
  | 'keys'
  | 'groups'
  | 'settings'
  | 'logs'
  | 'quickStart';

export interface NavigationItem {
  key: NavigationKey;
  path: string;
}

const ADMIN_ITEMS: readonly NavigationItem[] = [
  { key: 'dashboard', path: '/' },
  { key: 'channels', path: '/channels' },
  { key: 'models', path: '/models' },
  { key: 'virtualModels', path: '/virtual-models' },
  { key: 'guardrails', path: '/guardrails' },
  { key: 'users', path: '/users' },
  { key: 'keys', path: '/keys' },
  { key: 'groups', path: '/groups' },
  { key: 'settings', path: '/settings' },
  { key: 'logs', path: '/logs' },
];

const USER_ITEMS: readonly NavigationItem[] = [
  { key: 'dashboard', path: '/' },
  { key: 'keys', path: '/keys' },
  { key: 'logs', path: '/logs' },
  { key: 'quickStart', path: '/quick-start' },
];

/** The pages of the navigation, by role: admins run the gateway, users their own account. */
export function navigationItems(role: Role): readonly NavigationItem[] {
  return role === 'admin' ? ADMIN_ITEMS : USER_ITEMS;
}
