/** @vitest-environment jsdom */
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CURRENT_USER_KEY } from '../auth/use-current-user';
import type { RegistrationMode } from '../public/public-options';
import { renderWithProviders } from '../test/render-with-providers';
import { RegisterPage } from './register-page';

function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

const registered = { id: 9, username: 'carol', role: 'user', language: null, balance: 1, root: false };

/** A gateway in the given registration mode; `register` answers the registration. */
function fakeGateway(mode: RegistrationMode, register: () => Response = () => json(registered, 201)) {
  const fetchMock = vi.fn(async (url: string, _init?: RequestInit) => {
    if (url === '/api/auth/options') {
      return json({ registration: mode, pricing_public: true, topup: false, topup_min_usd: 1 });
    }
    if (url === '/api/auth/register') return register();
    return json({ error: { message: 'not here' } }, 404);
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('RegisterPage', () => {
  it('checks the password, registers, and signs the new user in', async () => {
    const fetchMock = fakeGateway('open');
    const { queryClient } = renderWithProviders(<RegisterPage />, { route: '/register' });
    await screen.findByRole('heading', { name: 'Create an account' });
    const username = await screen.findByLabelText(/^Username/);
    // Open registration asks for no invite code.
    expect(screen.queryByLabelText(/^Invite code/)).toBeNull();
    const user = userEvent.setup({ delay: null });
    await user.type(username, '  carol ');
    await user.type(screen.getByLabelText(/^Password/), 'short');
    await user.type(screen.getByLabelText(/^Repeat password/), 'other');
    await user.click(screen.getByRole('button', { name: 'Create account' }));
    expect(screen.getByText('At least 8 characters')).toBeTruthy();
    expect(screen.getByText('The passwords differ')).toBeTruthy();

    await user.clear(screen.getByLabelText(/^Password/));
    await user.type(screen.getByLabelText(/^Password/), 'carol-password');
    await user.clear(screen.getByLabelText(/^Repeat password/));
    await user.type(screen.getByLabelText(/^Repeat password/), 'carol-password');
    await user.click(screen.getByRole('button', { name: 'Create account' }));
    await waitFor(() => expect(queryClient.getQueryData(CURRENT_USER_KEY)).toEqual(registered));
    const call = fetchMock.mock.calls.find(([url]) => url === '/api/auth/register');
    expect(JSON.parse(String(call?.[1]?.body))).toEqual({
      username: 'carol',
      password: 'carol-password',
    });
  });

  it('asks for an invite code when registration is by invite, and shows a refusal on its field', async () => {
    const fetchMock = fakeGateway('invite', () =>
      json(
        {
          error: {
            message: 'invite_code is not a valid, unused invite code',
            type: 'gateway_api_error',
            code: 'invalid_request',
            param: 'invite_code',
          },
        },
        400,
      ),
    );
    renderWithProviders(<RegisterPage />, { route: '/register' });
    const user = userEvent.setup({ delay: null });
    await user.type(await screen.findByLabelText(/^Username/), 'dave');
    await user.type(screen.getByLabelText(/^Password/), 'dave-password');
    await user.type(screen.getByLabelText(/^Repeat password/), 'dave-password');
    await user.click(screen.getByRole('button', { name: 'Create account' }));
    expect(screen.getByText('Required')).toBeTruthy();
    expect(fetchMock.mock.calls.some(([url]) => url === '/api/auth/register')).toBe(false);

    await user.type(screen.getByLabelText(/^Invite code/), 'inv_wrong');
    await user.click(screen.getByRole('button', { name: 'Create account' }));
    expect(await screen.findByText('invite_code is not a valid, unused invite code')).toBeTruthy();
  });

  it('on a gateway that does not say its mode, offers the form and shows a refusal as closed', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) =>
        url === '/api/auth/register'
          ? json(
              {
                error: {
                  message: 'Registration is closed',
                  type: 'gateway_api_error',
                  code: 'registration_closed',
                },
              },
              403,
            )
          : json({ error: { message: 'Invalid URL (GET /api/auth/options)', code: '' } }, 404),
      ),
    );
    renderWithProviders(<RegisterPage />, { route: '/register' });
    const user = userEvent.setup({ delay: null });
    await user.type(await screen.findByLabelText(/^Username/), 'erin');
    // The invite code is asked for only in case the gateway wants one.
    expect(screen.getByText('Only if the gateway asks for one.')).toBeTruthy();
    await user.type(screen.getByLabelText(/^Password/), 'erin-password');
    await user.type(screen.getByLabelText(/^Repeat password/), 'erin-password');
    await user.click(screen.getByRole('button', { name: 'Create account' }));
    expect((await screen.findByRole('status')).textContent).toBe(
      'Registration is closed on this gateway. Ask an administrator for an account.',
    );
    expect(screen.queryByLabelText(/^Username/)).toBeNull();
  });

  it('says so when registration is closed, in Chinese too', async () => {
    fakeGateway('closed');
    renderWithProviders(<RegisterPage />, { route: '/register', language: 'zh-CN' });
    expect((await screen.findByRole('status')).textContent).toBe(
      '此网关已关闭注册。请联系管理员为你创建账户。',
    );
    expect(screen.queryByRole('button', { name: '注册' })).toBeNull();
  });
});
