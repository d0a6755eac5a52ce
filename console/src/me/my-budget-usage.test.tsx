/** @vitest-environment jsdom */
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { queryKeys } from '../api/query-keys';
import type { BudgetUsage } from '../api/types';
import { mockFetch } from '../test/mock-fetch';
import { renderWithProviders } from '../test/render-with-providers';
import { MyBudgetUsage } from './my-budget-usage';

const unused = {
  hours: null,
  tokens: null,
  requests: null,
  models: null,
  used_tokens: 0,
  used_requests: 0,
  window_start: null,
  resets_at: null,
} as const;

const own: BudgetUsage[] = [
  { ...unused, scope: 'user', id: 7, period: 'total', usd: 50, used_usd: 45 },
  { ...unused, scope: 'key', id: 3, period: 'total', usd: 10, used_usd: 2.5 },
];

afterEach(() => {
  vi.unstubAllGlobals();
});

function serve(windows: BudgetUsage[]) {
  return mockFetch((url) => {
    if (url === '/api/me/budgets') return { status: 200, body: { data: windows } };
    if (url.startsWith('/api/me/keys')) return { status: 200, body: { data: [{ id: 3, name: 'laptop' }] } };
    return { status: 404, body: {} };
  });
}

describe('MyBudgetUsage', () => {
  it('shows the account’s windows and each key’s under their own heading, as bars', async () => {
    serve(own);
    renderWithProviders(<MyBudgetUsage />);
    const section = await screen.findByRole('region', { name: 'Spending limits' });
    expect(within(section).getByRole('heading', { name: 'Your account' })).toBeTruthy();
    expect(await within(section).findByRole('heading', { name: 'Key laptop' })).toBeTruthy();
    const bars = within(section).getAllByRole('progressbar');
    expect(bars.map((bar) => [bar.getAttribute('aria-label'), bar.getAttribute('aria-valuenow')])).toEqual([
      ['total · $45.000000 of $50.000000 · resets never', '90'],
      ['total · $2.500000 of $10.000000 · resets never', '25'],
    ]);
  });

  it('shows nothing to a user without budgets', async () => {
    serve([]);
    const { queryClient } = renderWithProviders(<MyBudgetUsage />);
    await waitFor(() =>
      expect(queryClient.getQueryState(queryKeys.budgetUsage({ scope: 'own' }))?.status).toBe('success'),
    );
    expect(screen.queryByRole('region')).toBeNull();
    expect(screen.queryByRole('progressbar')).toBeNull();
  });
});
