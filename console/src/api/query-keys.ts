import type { BudgetOwner } from './budgets-api';

/** Cache keys of the management API's lists, shared by the pages that read and change them. */
export const queryKeys = {
  users: ['users'] as const,
  keys: (scope: 'admin' | 'own') => ['keys', scope] as const,
  channels: ['channels'] as const,
  channelHealth: (id: number) => ['channels', id, 'health'] as const,
  prices: ['prices'] as const,
  modelMetadata: ['model-metadata'] as const,
  virtualModels: ['virtual-models'] as const,
  groups: ['groups'] as const,
  settings: ['settings'] as const,
  configFile: ['config-file'] as const,
  logs: ['logs'] as const,
  logDetail: (scope: 'admin' | 'own', id: number) => ['logs', scope, 'detail', id] as const,
  // Under the owner's list: saving the owner reloads its windows too.
  budgetUsage: (owner: BudgetOwner) => {
    switch (owner.scope) {
      case 'key':
        return ['keys', owner.id, 'budgets'] as const;
      case 'user':
        return ['users', owner.id, 'budgets'] as const;
      case 'group':
        return ['groups', owner.name, 'budgets'] as const;
      case 'own':
        return ['keys', 'own', 'budgets'] as const;
      default: {
        const unknown: never = owner;
        throw new Error(`unknown budget owner ${JSON.stringify(unknown)}`);
      }
    }
  },
  webhookDeliveries: ['webhook-deliveries'] as const,
  // Admin-api section 15: money in and self-service.
  publicOptions: ['public-options'] as const,
  ownAccount: ['me'] as const,
  ownCredits: ['me', 'credits'] as const,
  ownOrders: ['me', 'orders'] as const,
  orders: ['orders'] as const,
  redemptionCodes: ['redemption-codes'] as const,
  inviteCodes: ['invite-codes'] as const,
  pricing: ['pricing'] as const,
  playgroundModels: (userId: number) => ['playground', userId, 'models'] as const,
};
