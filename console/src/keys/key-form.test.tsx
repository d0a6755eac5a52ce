/** @vitest-environment jsdom */
import { fireEvent, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../api/api-error';
import type { KeyScope } from '../api/keys-api';
import type { ApiKey, Language } from '../api/types';
import { renderWithProviders } from '../test/render-with-providers';
import { KeyForm, type KeySubmission } from './key-form';

const stored: ApiKey = {
  id: 9,
  user_id: 7,
  name: 'batch',
  key: 'sk-abcd****wxyz',
  status: 'enabled',
  expires_at: null,
  unlimited_quota: true,
  quota: 0,
  used_quota: 0,
  model_limits: null,
  ip_allow_list: null,
  group: null,
  rpm: null,
  tpm: null,
  budgets: [
    { period: 'hours', hours: 5, usd: 2.5, tokens: null, requests: null, models: null, alert_at: [0.8] },
  ],
  max_concurrency: 3,
  log_bodies: null,
  created_at: 0,
};

function renderForm(
  options: { scope?: KeyScope; apiKey?: ApiKey; error?: unknown; language?: Language } = {},
) {
  const onSubmit = vi.fn<(submission: KeySubmission) => void>();
  renderWithProviders(
    <KeyForm
      scope={options.scope ?? 'admin'}
      {...(options.apiKey ? { apiKey: options.apiKey } : {})}
      pending={false}
      error={options.error ?? null}
      onSubmit={onSubmit}
      onCancel={() => undefined}
    />,
    { language: options.language ?? 'en' },
  );
  return { onSubmit, user: userEvent.setup({ delay: null }) };
}

function budget(number: number) {
  return within(screen.getByRole('group', { name: `Budget ${number}` }));
}

/** Sets a field's whole text at once, as a browser test's `fill` does. */
function fill(field: HTMLElement, text: string) {
  fireEvent.change(field, { target: { value: text } });
}

describe('KeyForm spend limits', () => {
  it('creates a key with a concurrency cap and a session budget, its length asked only for that period', async () => {
    const { onSubmit, user } = renderForm();
    fill(screen.getByLabelText(/^Max concurrent requests/), '2');
    await user.click(screen.getByRole('button', { name: 'Add budget' }));
    expect(budget(1).queryByLabelText(/^Window length/)).toBeNull();
    await user.selectOptions(budget(1).getByLabelText(/^Period/), 'hours');
    fill(budget(1).getByLabelText(/^Window length/), '24');
    fill(budget(1).getByLabelText('Request limit'), '100');
    fill(budget(1).getByLabelText(/^Only these models/), 'gpt-4o, o3');
    fill(budget(1).getByLabelText(/^Alert at/), '50, 90%');
    await user.click(screen.getByRole('button', { name: 'Create' }));
    expect(onSubmit.mock.calls[0]?.[0]).toMatchObject({
      kind: 'create',
      fields: {
        max_concurrency: 2,
        budgets: [
          {
            period: 'hours',
            hours: 24,
            usd: null,
            tokens: null,
            requests: 100,
            models: ['gpt-4o', 'o3'],
            alert_at: [0.5, 0.9],
          },
        ],
      },
    });
  });

  it('refuses a budget without a limit or with a bad length, and clears the message on the next edit', async () => {
    const { onSubmit, user } = renderForm();
    await user.click(screen.getByRole('button', { name: 'Add budget' }));
    await user.selectOptions(budget(1).getByLabelText(/^Period/), 'hours');
    fill(budget(1).getByLabelText(/^Window length/), '721');
    await user.click(screen.getByRole('button', { name: 'Create' }));
    expect(onSubmit).not.toHaveBeenCalled();
    expect(budget(1).getByText('Set at least one limit: USD, tokens or requests')).toBeTruthy();
    expect(budget(1).getByText('Whole hours from 1 to 720')).toBeTruthy();
    fill(budget(1).getByLabelText('USD limit'), '1');
    expect(budget(1).queryByText('Set at least one limit: USD, tokens or requests')).toBeNull();
    fill(budget(1).getByLabelText(/^Window length/), '720');
    await user.click(screen.getByRole('button', { name: 'Create' }));
    expect(onSubmit.mock.calls[0]?.[0]).toMatchObject({
      fields: { budgets: [{ period: 'hours', hours: 720, usd: 1 }] },
    });
  });

  it('shows a key’s budgets and sends only the spend limits that changed', async () => {
    const { onSubmit, user } = renderForm({ apiKey: stored });
    expect(screen.getByLabelText(/^Max concurrent requests/)).toHaveProperty('value', '3');
    expect(budget(1).getByLabelText(/^Window length/)).toHaveProperty('value', '5');
    expect(budget(1).getByLabelText('USD limit')).toHaveProperty('value', '2.5');
    expect(budget(1).getByLabelText(/^Alert at/)).toHaveProperty('value', '80');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(onSubmit).toHaveBeenLastCalledWith({ kind: 'update', id: 9, changes: {} });
    await user.click(screen.getByRole('button', { name: 'Add budget' }));
    await user.selectOptions(budget(2).getByLabelText(/^Period/), 'total');
    fill(budget(2).getByLabelText('Token limit'), '1000000');
    await user.click(budget(1).getByRole('button', { name: 'Remove budget 1' }));
    await user.clear(screen.getByLabelText(/^Max concurrent requests/));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(onSubmit).toHaveBeenLastCalledWith({
      kind: 'update',
      id: 9,
      changes: {
        budgets: [
          {
            period: 'total',
            hours: null,
            usd: null,
            tokens: 1000000,
            requests: null,
            models: null,
            alert_at: [],
          },
        ],
        max_concurrency: null,
      },
    });
  });

  it('shows the gateway’s refusal', () => {
    renderForm({
      error: new ApiError({
        status: 400,
        code: 'invalid_request',
        message: 'budgets.0.hours: must be at most 720',
      }),
    });
    expect(screen.getByRole('alert').textContent).toContain('budgets.0.hours: must be at most 720');
  });
});

describe('KeyForm body logging', () => {
  const choice = () => screen.getByLabelText(/^Store bodies/);

  it('lets an admin create a key that follows its group, or turn its bodies on', async () => {
    const { onSubmit, user } = renderForm();
    expect([...choice().querySelectorAll('option')].map((option) => option.textContent)).toEqual([
      'Follow group',
      'On',
      'Off',
    ]);
    expect(choice()).toHaveProperty('value', 'group');
    await user.click(screen.getByRole('button', { name: 'Create' }));
    expect(onSubmit.mock.calls[0]?.[0]).toMatchObject({ kind: 'create', fields: { log_bodies: null } });
    await user.selectOptions(choice(), 'On');
    await user.click(screen.getByRole('button', { name: 'Create' }));
    expect(onSubmit.mock.calls[1]?.[0]).toMatchObject({ kind: 'create', fields: { log_bodies: true } });
  });

  it('shows an admin the key’s own setting and sends only its change', async () => {
    const { onSubmit, user } = renderForm({ apiKey: { ...stored, log_bodies: false } });
    expect(choice()).toHaveProperty('value', 'off');
    await user.selectOptions(choice(), 'Follow group');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(onSubmit).toHaveBeenLastCalledWith({ kind: 'update', id: 9, changes: { log_bodies: null } });
  });

  it('is neither shown nor sent on a user’s own key', async () => {
    const { onSubmit, user } = renderForm({ scope: 'own' });
    expect(screen.queryByLabelText(/^Store bodies/)).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Create' }));
    const submission = onSubmit.mock.calls[0]?.[0];
    if (submission?.kind !== 'create') throw new Error('no key was created');
    expect(submission.fields).toMatchObject({ name: '', status: 'enabled' });
    expect(submission.fields).not.toHaveProperty('log_bodies');
  });

  it('leaves a user’s key that stores its bodies as it is when they edit it', async () => {
    const { onSubmit, user } = renderForm({ scope: 'own', apiKey: { ...stored, log_bodies: true } });
    fill(screen.getByLabelText('Name'), 'renamed');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(onSubmit).toHaveBeenLastCalledWith({ kind: 'update', id: 9, changes: { name: 'renamed' } });
  });

  it('says it in Chinese', () => {
    renderForm({ language: 'zh-CN' });
    const select = screen.getByLabelText(/^存储请求内容/);
    expect([...select.querySelectorAll('option')].map((option) => option.textContent)).toEqual([
      '跟随分组',
      '开启',
      '关闭',
    ]);
  });
});
