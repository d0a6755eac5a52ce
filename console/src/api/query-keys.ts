/** Cache keys of the management API's lists, shared by the pages that read and change them. */
export const queryKeys = {
  users: ['users'] as const,
  keys: (scope: 'admin' | 'own') => ['keys', scope] as const,
  channels: ['channels'] as const,
  channelHealth: (id: number) => ['channels', id, 'health'] as const,
  prices: ['prices'] as const,
  groups: ['groups'] as const,
  settings: ['settings'] as const,
  logs: ['logs'] as const,
};
