/** @vitest-environment jsdom */
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { VirtualModel } from '../api/types';
import { mockFetch, type FakeReply } from '../test/mock-fetch';
import { renderWithProviders } from '../test/render-with-providers';
import type { TargetChoice } from './target-row-fields';
import { VirtualModelFormModal } from './virtual-model-form-modal';

const choices: TargetChoice[] = [
  { model: 'claude-haiku', priced: true },
  { model: 'gpt-4o', priced: true },
  { model: 'o3', priced: false },
];

const stored: VirtualModel = {
  name: 'team/fast',
  targets: [{ model: 'gpt-4o', priority: 1, weight: 3 }],
  strategy: 'priority',
  fallback_on: ['rate_limit', 'server_error', 'timeout', 'context_length', 'content_filter'],
  sticky: true,
  managed: 'api',
};

afterEach(() => {
  vi.unstubAllGlobals();
});

function fill(field: HTMLElement, text: string) {
  fireEvent.change(field, { target: { value: text } });
}

function target(number: number) {
  return within(screen.getByRole('group', { name: `Target ${number}` }));
}

function renderModal(options: { virtualModel?: VirtualModel; reply?: () => FakeReply } = {}) {
  const fetchMock = mockFetch(
    options.reply ??
      ((_url, init) => ({
        status: init?.method === 'POST' ? 201 : 200,
        body: { ...stored, ...JSON.parse(String(init?.body)) },
      })),
  );
  const onClose = vi.fn();
  renderWithProviders(
    <VirtualModelFormModal
      opened
      virtualModel={options.virtualModel}
      choices={choices}
      servedModels={choices.map((choice) => choice.model)}
      takenNames={['smart']}
      onClose={onClose}
    />,
  );
  return { fetchMock, onClose, user: userEvent.setup({ delay: null }) };
}

function call(fetchMock: ReturnType<typeof mockFetch>) {
  const [url, init] = fetchMock.mock.calls[0] ?? [];
  return { url, method: init?.method, body: JSON.parse(String(init?.body)) as unknown };
}

describe('VirtualModelFormModal', () => {
  it('creates a virtual model with every member', async () => {
    const { fetchMock, onClose, user } = renderModal();
    fill(screen.getByLabelText(/^Name/), 'fast');
    await user.selectOptions(target(1).getByLabelText(/^Model/), 'gpt-4o');
    fill(target(1).getByLabelText(/^Priority/), '2');
    await user.click(screen.getByRole('button', { name: 'Add target' }));
    expect(target(2).getByRole('option', { name: 'o3 (not priced)' })).toBeTruthy();
    await user.selectOptions(target(2).getByLabelText(/^Model/), 'claude-haiku');
    fill(target(2).getByLabelText(/^Weight/), '3');
    await user.click(screen.getByLabelText(/^Latency/));
    await user.click(screen.getByLabelText('Content-policy refusal'));
    await user.click(screen.getByLabelText(/^Prompt-cache affinity/));
    await user.click(screen.getByRole('button', { name: 'Create' }));
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(1));
    expect(call(fetchMock)).toEqual({
      url: '/api/virtual-models',
      method: 'POST',
      body: {
        name: 'fast',
        targets: [
          { model: 'gpt-4o', priority: 2, weight: 1 },
          { model: 'claude-haiku', priority: 0, weight: 3 },
        ],
        strategy: 'latency',
        fallback_on: ['rate_limit', 'server_error', 'timeout', 'context_length'],
        sticky: false,
      },
    });
    await waitFor(() => expect(onClose).toHaveBeenCalled());
  });

  it('says what is wrong before calling the gateway, and clears a target’s message on the next edit', async () => {
    const { fetchMock, user } = renderModal();
    fill(screen.getByLabelText(/^Name/), 'gpt-4o');
    fill(target(1).getByLabelText(/^Weight/), '0');
    await user.click(screen.getByRole('button', { name: 'Create' }));
    expect(screen.getByText('A channel serves this model: choose another name')).toBeTruthy();
    expect(target(1).getByText('Required')).toBeTruthy();
    expect(target(1).getByText('A whole number, at least 1')).toBeTruthy();
    await user.click(target(1).getByRole('button', { name: 'Remove target 1' }));
    expect(screen.queryByText('A whole number, at least 1')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Create' }));
    expect(screen.getByText('Add at least one target')).toBeTruthy();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('patches only what changed, at the encoded name', async () => {
    const { fetchMock, user } = renderModal({ virtualModel: stored });
    expect(screen.getByLabelText(/^Name/)).toHaveProperty('disabled', true);
    expect(target(1).getByLabelText(/^Model/)).toHaveProperty('value', 'gpt-4o');
    fill(target(1).getByLabelText(/^Weight/), '5');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(1));
    expect(call(fetchMock)).toEqual({
      url: '/api/virtual-models/team%2Ffast',
      method: 'PATCH',
      body: { targets: [{ model: 'gpt-4o', priority: 1, weight: 5 }] },
    });
  });

  it('keeps a stored target no channel serves any more', async () => {
    const { fetchMock, user } = renderModal({
      virtualModel: { ...stored, targets: [{ model: 'retired', priority: 0, weight: 1 }] },
    });
    expect(target(1).getByRole('option', { name: 'retired (no channel serves it)' })).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(1));
    expect(call(fetchMock).body).toEqual({});
  });

  it('shows the gateway’s refusal at the field it names', async () => {
    const { user } = renderModal({
      reply: () => ({
        status: 400,
        body: {
          error: {
            message: 'targets.0.model: no channel serves o3',
            type: 'gateway_api_error',
            param: 'targets.0.model',
            code: 'invalid_request',
          },
        },
      }),
    });
    fill(screen.getByLabelText(/^Name/), 'fast');
    await user.selectOptions(target(1).getByLabelText(/^Model/), 'o3');
    await user.click(screen.getByRole('button', { name: 'Create' }));
    expect((await screen.findByRole('alert')).textContent).toContain('no channel serves o3');
    expect(target(1).getByText('targets.0.model: no channel serves o3')).toBeTruthy();
  });
});
