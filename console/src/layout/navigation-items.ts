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
  | 'redemptionCodes'
  | 'inviteCodes'
  | 'orders'
  | 'settings'
  | 'logs'
  | 'playground'
  | 'pricing'
  | 'redeem'
  | 'topUp'
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
  { key: 'redemptionCodes', path: '/redemption-codes' },
  { key: 'inviteCodes', path: '/invite-codes' },
  { key: 'orders', path: '/orders' },
  { key: 'settings', path: '/settings' },
  { key: 'logs', path: '/logs' },
  { key: 'pricing', path: '/pricing' },
];

const PLAYGROUND: NavigationItem = { key: 'playground', path: '/playground' };
const TOP_UP: NavigationItem = { key: 'topUp', path: '/topup' };

/**
 * The pages of the navigation: admins run the gateway, users their own account. The playground
 * needs an account to charge (the root admin has none); card top-up shows only where the gateway
 * has it set up, or does not say.
 */
export function navigationItems(options: {
  role: Role;
  hasAccount: boolean;
  topUpOffered: boolean;
}): readonly NavigationItem[] {
  if (options.role === 'admin') return options.hasAccount ? [...ADMIN_ITEMS, PLAYGROUND] : ADMIN_ITEMS;
  return [
    { key: 'dashboard', path: '/' },
    { key: 'keys', path: '/keys' },
    { key: 'logs', path: '/logs' },
    PLAYGROUND,
    { key: 'pricing', path: '/pricing' },
    { key: 'redeem', path: '/redeem' },
    ...(options.topUpOffered ? [TOP_UP] : []),
    { key: 'quickStart', path: '/quick-start' },
  ];
}
