import { describe, expect, it } from 'vitest';
import type { User } from '../api/types';
import { formValuesToUserFields, userChanges, userToFormValues } from './user-form-values';

const alice: User = {
  id: 7,
  username: 'alice',
  role: 'user',
  group: 'default',
  balance: 12,
  used: 3,
  language: null,
  status: 'enabled',
  budgets: [{ period: 'day', hours: null, usd: 5, tokens: null, requests: null, models: null, alert_at: [] }],
  max_concurrency: null,
  low_balance_alert: 1.5,
  created_at: 0,
};

describe('user form values', () => {
  it('creates a user with the low balance alert and spend limits, empty ones as null', () => {
    const values = { ...userToFormValues(), username: ' bob ', lowBalanceAlert: '', maxConcurrency: 3 };
    expect(formValuesToUserFields(values)).toEqual({
      username: 'bob',
      role: 'user',
      group: 'default',
      balance: 0,
      language: null,
      status: 'enabled',
      low_balance_alert: null,
      budgets: [],
      max_concurrency: 3,
    });
  });

  it('sends only what changed, never the balance', () => {
    const initial = userToFormValues(alice);
    expect(userChanges(initial, { ...initial, balance: 0 })).toEqual({});
    expect(userChanges(initial, { ...initial, lowBalanceAlert: 2, budgets: [], password: 'secret' })).toEqual(
      {
        low_balance_alert: 2,
        budgets: [],
        password: 'secret',
      },
    );
  });
});
