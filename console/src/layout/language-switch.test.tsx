/** @vitest-environment jsdom */
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SignedInUser } from '../api/types';
import { LANGUAGE_STORAGE_KEY } from '../i18n/choose-language';
import { renderWithProviders } from '../test/render-with-providers';
import { LanguageSwitch } from './language-switch';

const alice: SignedInUser = { id: 7, username: 'alice', role: 'user', language: null, root: false };
const root: SignedInUser = { id: 0, username: 'root', role: 'admin', language: null, root: true };

function mockFetch() {
  const fetchMock = vi.fn(
    async (_url: string, init?: RequestInit) =>
      new Response(JSON.stringify({ ...alice, language: JSON.parse(String(init?.body)).language }), {
        status: 200,
        headers: { 'content-type': 'application/json' },
      }),
  );
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('LanguageSwitch', () => {
  it('switches the interface at once and saves the choice to the account, with the CSRF header', async () => {
    const fetchMock = mockFetch();
    document.cookie = 'gw_csrf=token-123';
    const { i18n } = renderWithProviders(<LanguageSwitch user={alice} />);
    expect(screen.getByText('Language')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: '简体中文' }));
    expect(i18n.language).toBe('zh-CN');
    expect(screen.getByText('语言')).toBeTruthy();
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(1));
    const [url, init] = fetchMock.mock.calls[0] ?? [];
    expect(url).toBe('/api/me');
    expect(init?.method).toBe('PATCH');
    expect(init?.body).toBe(JSON.stringify({ language: 'zh-CN' }));
    expect(init?.headers).toMatchObject({ 'X-CSRF-Token': 'token-123' });
    expect(window.localStorage.getItem(LANGUAGE_STORAGE_KEY)).toBe('zh-CN');
  });

  it('keeps the root admin’s choice in this browser only', async () => {
    const fetchMock = mockFetch();
    const { i18n } = renderWithProviders(<LanguageSwitch user={root} />, { language: 'zh-CN' });
    await userEvent.click(screen.getByRole('button', { name: 'English' }));
    expect(i18n.language).toBe('en');
    expect(window.localStorage.getItem(LANGUAGE_STORAGE_KEY)).toBe('en');
    expect(fetchMock).not.toHaveBeenCalled();
  });
});
