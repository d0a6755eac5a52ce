/** @vitest-environment jsdom */
import { fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockFetch, type FakeReply } from '../test/mock-fetch';
import { renderWithProviders } from '../test/render-with-providers';
import type { Guardrail } from './guardrail';
import { GuardrailFormModal } from './guardrail-form-modal';

const stored: Guardrail = {
  id: 7,
  name: 'moderation',
  kind: 'webhook',
  pattern: null,
  url: 'https://checks.example.com/guard',
  action: 'block',
  fail: 'closed',
  timeout_ms: 1000,
  groups: null,
  created_at: 1_700_000_000,
  managed: 'api',
};

afterEach(() => {
  vi.unstubAllGlobals();
});

function fill(field: HTMLElement, text: string) {
  fireEvent.change(field, { target: { value: text } });
}

function renderModal(options: { guardrail?: Guardrail; reply?: () => FakeReply } = {}) {
  const fetchMock = mockFetch(
    options.reply ??
      ((_url, init) => ({
        status: init?.method === 'POST' ? 201 : 200,
        body: { ...stored, ...JSON.parse(String(init?.body)) },
      })),
  );
  const onClose = vi.fn();
  renderWithProviders(
    <GuardrailFormModal
      opened
      guardrail={options.guardrail}
      takenNames={['pii', 'moderation']}
      knownGroups={['default', 'vip']}
      onClose={onClose}
    />,
  );
  return { fetchMock, onClose, user: userEvent.setup({ delay: null }) };
}

function call(fetchMock: ReturnType<typeof mockFetch>) {
  const [url, init] = fetchMock.mock.calls[0] ?? [];
  return { url, method: init?.method, body: JSON.parse(String(init?.body)) as unknown };
}

describe('GuardrailFormModal', () => {
  it('creates a regex guardrail: pattern, action and groups, no webhook members', async () => {
    const { fetchMock, onClose, user } = renderModal();
    expect(screen.queryByLabelText(/^Webhook URL/)).toBeNull();
    expect(screen.queryByLabelText(/^Timeout/)).toBeNull();
    fill(screen.getByLabelText(/^Name/), 'secrets');
    fill(screen.getByLabelText(/^Pattern/), 'sk-[A-Za-z0-9]{20,}');
    await user.click(screen.getByLabelText(/^Log/));
    await user.click(screen.getByLabelText(/^Every group/));
    await user.click(screen.getByRole('checkbox', { name: 'vip' }));
    expect(screen.getByLabelText(/^Groups/)).toHaveProperty('value', 'vip');
    fill(screen.getByLabelText(/^Groups/), 'vip, trial');
    await user.click(screen.getByRole('checkbox', { name: 'default' }));
    await user.click(screen.getByRole('button', { name: 'Create' }));
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(1));
    expect(call(fetchMock)).toEqual({
      url: '/api/guardrails',
      method: 'POST',
      body: {
        name: 'secrets',
        kind: 'regex',
        pattern: 'sk-[A-Za-z0-9]{20,}',
        action: 'log',
        groups: ['vip', 'trial', 'default'],
      },
    });
    await waitFor(() => expect(onClose).toHaveBeenCalled());
  });

  it('creates a webhook guardrail: URL, failure mode and timeout, no pattern', async () => {
    const { fetchMock, user } = renderModal();
    fill(screen.getByLabelText(/^Name/), 'classifier');
    await user.click(screen.getByLabelText(/^Webhook/));
    expect(screen.queryByLabelText(/^Pattern/)).toBeNull();
    fill(screen.getByLabelText(/^Webhook URL/), 'https://checks.example.com/guard');
    await user.click(screen.getByLabelText(/^Fail open/));
    fill(screen.getByLabelText(/^Timeout/), '2500');
    await user.click(screen.getByRole('button', { name: 'Create' }));
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(1));
    expect(call(fetchMock)).toEqual({
      url: '/api/guardrails',
      method: 'POST',
      body: {
        name: 'classifier',
        kind: 'webhook',
        url: 'https://checks.example.com/guard',
        action: 'block',
        fail: 'open',
        timeout_ms: 2500,
        groups: null,
      },
    });
  });

  it('says a regex needs a pattern before calling the gateway', async () => {
    const { fetchMock, user } = renderModal();
    fill(screen.getByLabelText(/^Name/), 'pii');
    await user.click(screen.getByRole('button', { name: 'Create' }));
    expect(screen.getByText('Another guardrail has this name')).toBeTruthy();
    expect(screen.getByText('Required')).toBeTruthy();
    fill(screen.getByLabelText(/^Pattern/), '(unclosed');
    await user.click(screen.getByRole('button', { name: 'Create' }));
    expect(screen.getByText(/^Not a valid regular expression/)).toBeTruthy();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('says a webhook needs an http(s) URL, a timeout in range and a group when not every group', async () => {
    const { fetchMock, user } = renderModal();
    fill(screen.getByLabelText(/^Name/), 'classifier');
    await user.click(screen.getByLabelText(/^Webhook/));
    fill(screen.getByLabelText(/^Timeout/), '60001');
    await user.click(screen.getByLabelText(/^Every group/));
    await user.click(screen.getByRole('button', { name: 'Create' }));
    expect(screen.getByText('Required')).toBeTruthy();
    expect(screen.getByText('A whole number from 1 to 60000')).toBeTruthy();
    expect(screen.getByText('Name at least one group, or check every group')).toBeTruthy();
    fill(screen.getByLabelText(/^Webhook URL/), 'ftp://checks.example.com');
    await user.click(screen.getByRole('button', { name: 'Create' }));
    expect(screen.getByText(/^An http or https URL/)).toBeTruthy();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('patches only what changed, at the guardrail’s id', async () => {
    const { fetchMock, user } = renderModal({ guardrail: stored });
    expect(screen.getByLabelText(/^Webhook URL/)).toHaveProperty('value', 'https://checks.example.com/guard');
    fill(screen.getByLabelText(/^Timeout/), '3000');
    await user.click(screen.getByLabelText(/^Log/));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(1));
    expect(call(fetchMock)).toEqual({
      url: '/api/guardrails/7',
      method: 'PATCH',
      body: { action: 'log', timeout_ms: 3000 },
    });
  });

  it('turning a webhook into a regex sends the pattern and clears the URL', async () => {
    const { fetchMock, user } = renderModal({ guardrail: stored });
    await user.click(screen.getByLabelText(/^Regular expression/));
    expect(screen.queryByLabelText(/^Timeout/)).toBeNull();
    fill(screen.getByLabelText(/^Pattern/), 'forbidden');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(1));
    expect(call(fetchMock).body).toEqual({ kind: 'regex', pattern: 'forbidden', url: null });
  });

  it('shows the gateway’s refusal at the field it names', async () => {
    const { user } = renderModal({
      reply: () => ({
        status: 400,
        body: {
          error: {
            message: 'pattern: at risk of catastrophic backtracking',
            type: 'gateway_api_error',
            param: 'pattern',
            code: 'invalid_request',
          },
        },
      }),
    });
    fill(screen.getByLabelText(/^Name/), 'nested');
    fill(screen.getByLabelText(/^Pattern/), '(a+)+$');
    await user.click(screen.getByRole('button', { name: 'Create' }));
    expect((await screen.findByRole('alert')).textContent).toContain('catastrophic backtracking');
    expect(screen.getAllByText('pattern: at risk of catastrophic backtracking')).toHaveLength(2);
    expect(screen.getByLabelText(/^Pattern/).getAttribute('aria-invalid')).toBe('true');
  });
});
