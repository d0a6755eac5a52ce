/** @vitest-environment jsdom */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../test/render-with-providers';
import type { CreatedRedemptionCode, RedemptionCode } from './redemption-code';
import { RedemptionCodesPage } from './redemption-codes-page';

const listed: RedemptionCode = {
  id: 1,
  code: 'rc_A…wxyz',
  name: 'old batch',
  amount: 5,
  status: 'used',
  expires_at: null,
  used_by: 3,
  used_at: 1_800_000_000,
  created_at: 1_799_000_000,
};

function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('RedemptionCodesPage', () => {
  it('checks the batch form, then shows the new codes once and downloads them as CSV', async () => {
    const created: CreatedRedemptionCode[] = [
      { id: 21, code: 'rc_first-secret', amount: 2.5, expires_at: null, name: 'spring' },
      { id: 22, code: 'rc_second-secret', amount: 2.5, expires_at: null, name: 'spring' },
    ];
    const fetchMock = vi.fn(async (url: string, init?: RequestInit) => {
      if (url.startsWith('/api/redemption-codes') && init?.method === 'POST')
        return json({ data: created }, 201);
      if (url.startsWith('/api/redemption-codes')) return json({ data: [listed] });
      if (url.startsWith('/api/users')) return json({ data: [{ id: 3, username: 'alice' }] });
      return json({ data: [] });
    });
    vi.stubGlobal('fetch', fetchMock);
    const blobs: Blob[] = [];
    vi.spyOn(URL, 'createObjectURL').mockImplementation((blob) => {
      blobs.push(blob as Blob);
      return 'blob:codes';
    });
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
    const downloads: { href: string; download: string }[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      downloads.push({ href: this.href, download: this.download });
    });

    renderWithProviders(<RedemptionCodesPage />);
    const table = within(await screen.findByRole('table', { name: 'Redemption codes' }));
    expect(table.getByText('rc_A…wxyz')).toBeTruthy();
    await waitFor(() => expect(table.getByText('alice')).toBeTruthy());

    const user = userEvent.setup({ delay: null });
    await user.click(screen.getByRole('button', { name: 'New codes' }));
    const form = within(await screen.findByRole('dialog', { name: 'New redemption codes' }));
    await user.clear(form.getByLabelText(/^How many/));
    await user.type(form.getByLabelText(/^How many/), '1001');
    await user.click(form.getByRole('button', { name: 'Create codes' }));
    expect(form.getByText('Required')).toBeTruthy();
    expect(form.getByText('A whole number from 1 to 1000')).toBeTruthy();
    expect(fetchMock.mock.calls.some(([, init]) => init?.method === 'POST')).toBe(false);

    await user.type(form.getByLabelText(/^Amount/), '2.5');
    await user.clear(form.getByLabelText(/^How many/));
    await user.type(form.getByLabelText(/^How many/), '2');
    await user.type(form.getByLabelText(/^Name/), 'spring');
    await user.click(form.getByRole('button', { name: 'Create codes' }));

    const shown = within(await screen.findByRole('dialog', { name: '2 new redemption codes' }));
    const post = fetchMock.mock.calls.find(([, init]) => init?.method === 'POST');
    expect(JSON.parse(String(post?.[1]?.body))).toEqual({ amount: 2.5, count: 2, name: 'spring' });
    expect(shown.getByText(/shown only now/)).toBeTruthy();
    expect(shown.getByTestId('created-redemption-codes').textContent).toBe(
      'rc_first-secret\nrc_second-secret',
    );

    await user.click(shown.getByRole('button', { name: 'Download CSV' }));
    expect(downloads).toEqual([{ href: 'blob:codes', download: 'redemption-codes-spring-21.csv' }]);
    expect(blobs[0]?.type).toBe('text/csv;charset=utf-8');
    expect(await blobs[0]?.text()).toBe(
      'id,code,amount,expires_at,name\r\n21,rc_first-secret,2.5,,spring\r\n22,rc_second-secret,2.5,,spring\r\n',
    );
  });

  it('disables an unused code and refuses to disable a used one', async () => {
    const unused: RedemptionCode = {
      ...listed,
      id: 2,
      code: 'rc_B…abcd',
      status: 'unused',
      used_by: null,
      used_at: null,
    };
    const fetchMock = vi.fn(async (url: string, init?: RequestInit) => {
      if (init?.method === 'PATCH') return json({ ...unused, status: 'disabled' });
      if (url.startsWith('/api/redemption-codes')) return json({ data: [unused, listed] });
      return json({ data: [] });
    });
    vi.stubGlobal('fetch', fetchMock);
    renderWithProviders(<RedemptionCodesPage />, { language: 'zh-CN' });
    const table = within(await screen.findByRole('table', { name: '兑换码' }));
    const user = userEvent.setup({ delay: null });
    const usedRow = within(table.getByText('rc_A…wxyz').closest('tr') as HTMLElement);
    expect(usedRow.getByRole('button', { name: '禁用' }).getAttribute('aria-disabled')).toBe('true');
    const unusedRow = within(table.getByText('rc_B…abcd').closest('tr') as HTMLElement);
    await user.click(unusedRow.getByRole('button', { name: '禁用' }));
    await waitFor(() =>
      expect(fetchMock).toHaveBeenCalledWith(
        '/api/redemption-codes/2',
        expect.objectContaining({ method: 'PATCH', body: JSON.stringify({ status: 'disabled' }) }),
      ),
    );
  });
});
