/** @vitest-environment jsdom */
import { screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../test/render-with-providers';
import { SignInPage } from './sign-in-page';

function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('SignInPage', () => {
  it('links to registration and to the prices when the gateway offers them', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () =>
        json({ registration: 'invite', pricing_public: true, topup: true, topup_min_usd: 1 }),
      ),
    );
    renderWithProviders(<SignInPage />);
    expect((await screen.findByRole('link', { name: 'Create an account' })).getAttribute('href')).toBe(
      '/register',
    );
    expect(screen.getByRole('link', { name: 'See the prices' }).getAttribute('href')).toBe('/pricing');
  });

  it('offers neither when registration is closed and prices are for signed-in users', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () =>
        json({ registration: 'closed', pricing_public: false, topup: false, topup_min_usd: 1 }),
      ),
    );
    renderWithProviders(<SignInPage />);
    // Offered while the gateway has not said (an older gateway never does), hidden once it has.
    expect(screen.getByRole('link', { name: 'Create an account' })).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('link', { name: 'Create an account' })).toBeNull());
    expect(screen.queryByRole('link', { name: 'See the prices' })).toBeNull();
  });
});
