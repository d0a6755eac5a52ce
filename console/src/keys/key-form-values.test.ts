import { describe, expect, it } from 'vitest';
import type { ApiKey } from '../api/types';
import { formValuesToKeyFields, keyChanges, keyToFormValues } from './key-form-values';

const stored: ApiKey = {
  id: 3,
  user_id: 7,
  name: 'ci',
  key: 'sk-abcd****wxyz',
  status: 'exhausted',
  expires_at: null,
  unlimited_quota: false,
  quota: 0,
  used_quota: 5,
  model_limits: ['gpt-4o'],
  ip_allow_list: null,
  group: null,
  rpm: 60,
  tpm: null,
  budgets: [
    { period: 'hours', hours: 5, usd: 2, tokens: null, requests: null, models: null, alert_at: [0.5, 1] },
  ],
  max_concurrency: 4,
  log_bodies: false,
  created_at: 0,
};

describe('key form values', () => {
  it('creates with every attribute, empty ones as null, bodies following the group', () => {
    const values = {
      ...keyToFormValues(),
      name: ' batch ',
      unlimitedQuota: false,
      quota: 2.5,
      modelLimits: ['gpt-4o, claude-sonnet-4'],
      ipAllowList: ['10.0.0.0/8'],
      group: 'vip',
      rpm: 10,
      tpm: '',
      maxConcurrency: 2,
    };
    expect(formValuesToKeyFields(values, 'admin')).toEqual({
      name: 'batch',
      status: 'enabled',
      expires_at: null,
      unlimited_quota: false,
      quota: 2.5,
      model_limits: ['gpt-4o', 'claude-sonnet-4'],
      ip_allow_list: ['10.0.0.0/8'],
      group: 'vip',
      rpm: 10,
      tpm: null,
      budgets: [],
      max_concurrency: 2,
      log_bodies: null,
    });
  });

  it('never sends log_bodies for a user’s own key, which /api/me/keys refuses', () => {
    const values = { ...keyToFormValues(), logBodies: 'on' as const };
    expect(formValuesToKeyFields(values, 'own')).not.toHaveProperty('log_bodies');
    const initial = keyToFormValues(stored);
    expect(keyChanges({ scope: 'own', initial, values: { ...initial, logBodies: 'on', name: 'x' } })).toEqual(
      {
        name: 'x',
      },
    );
  });

  it.each([
    [null, 'group'],
    [true, 'on'],
    [false, 'off'],
  ] as const)('shows log_bodies %s as %s and sends it back unchanged', (logBodies, choice) => {
    const values = keyToFormValues({ ...stored, log_bodies: logBodies });
    expect(values.logBodies).toBe(choice);
    expect(formValuesToKeyFields(values, 'admin').log_bodies).toBe(logBodies);
  });

  it('sends the new log_bodies of an admin’s edit, null to follow the group again', () => {
    const initial = keyToFormValues(stored);
    expect(keyChanges({ scope: 'admin', initial, values: { ...initial, logBodies: 'group' } })).toEqual({
      log_bodies: null,
    });
    expect(keyChanges({ scope: 'admin', initial, values: { ...initial, logBodies: 'on' } })).toEqual({
      log_bodies: true,
    });
  });

  it('never sends a derived status back', () => {
    expect(keyToFormValues(stored).status).toBe('enabled');
    const initial = keyToFormValues(stored);
    expect(keyChanges({ scope: 'admin', initial, values: keyToFormValues(stored) })).toEqual({});
  });

  it('sends only what changed', () => {
    const initial = keyToFormValues(stored);
    const values = { ...initial, status: 'disabled' as const, rpm: '', modelLimits: [] };
    expect(keyChanges({ scope: 'admin', initial, values })).toEqual({
      status: 'disabled',
      rpm: null,
      model_limits: null,
    });
  });

  it('reads the spend limits back unchanged and sends them whole once one changes', () => {
    const initial = keyToFormValues(stored);
    expect(formValuesToKeyFields(initial, 'admin')).toMatchObject({
      budgets: stored.budgets,
      max_concurrency: 4,
    });
    const [budget] = initial.budgets;
    if (!budget) throw new Error('the stored budget is missing');
    const edited = { ...initial, maxConcurrency: '', budgets: [{ ...budget, usd: 3 }] };
    expect(keyChanges({ scope: 'admin', initial, values: edited })).toEqual({
      max_concurrency: null,
      budgets: [{ ...stored.budgets[0], usd: 3 }],
    });
  });
});
