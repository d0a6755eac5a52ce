/** @vitest-environment jsdom */
import { fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ModelMetadata } from '../api/types';
import { mockFetch } from '../test/mock-fetch';
import { renderWithProviders } from '../test/render-with-providers';
import { ModelMetadataModal } from './model-metadata-modal';

const stored: ModelMetadata = {
  model: 'openai/gpt-4o',
  context_window: 128000,
  max_output_tokens: null,
  capabilities: ['tools'],
  managed: 'api',
};

afterEach(() => {
  vi.unstubAllGlobals();
});

function fill(field: HTMLElement, text: string) {
  fireEvent.change(field, { target: { value: text } });
}

function renderModal(metadata: ModelMetadata | undefined) {
  const fetchMock = mockFetch((_url, init) => ({
    status: 200,
    body: { model: stored.model, ...JSON.parse(String(init?.body)) },
  }));
  const onClose = vi.fn();
  renderWithProviders(<ModelMetadataModal target={{ model: stored.model, metadata }} onClose={onClose} />);
  return { fetchMock, onClose, user: userEvent.setup({ delay: null }) };
}

function sentBody(fetchMock: ReturnType<typeof mockFetch>): unknown {
  const [, init] = fetchMock.mock.calls[0] ?? [];
  return JSON.parse(String(init?.body));
}

describe('ModelMetadataModal', () => {
  it('puts the whole metadata at the encoded model id', async () => {
    const { fetchMock, onClose, user } = renderModal(stored);
    expect(screen.getByLabelText('Context window (tokens)')).toHaveProperty('value', '128000');
    expect(screen.getByLabelText('Max output tokens')).toHaveProperty('value', '');
    fill(screen.getByLabelText('Max output tokens'), '16384');
    await user.click(screen.getByLabelText('Image input'));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(1));
    const [url, init] = fetchMock.mock.calls[0] ?? [];
    expect(url).toBe('/api/models/openai%2Fgpt-4o');
    expect(init?.method).toBe('PUT');
    expect(sentBody(fetchMock)).toEqual({
      context_window: 128000,
      max_output_tokens: 16384,
      capabilities: ['tools', 'vision'],
    });
    await waitFor(() => expect(onClose).toHaveBeenCalled());
  });

  it('sends unknown capabilities as null, with the boxes disabled', async () => {
    const { fetchMock, user } = renderModal(undefined);
    expect(screen.getByLabelText('Tools')).toHaveProperty('disabled', true);
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(1));
    expect(sentBody(fetchMock)).toEqual({
      context_window: null,
      max_output_tokens: null,
      capabilities: null,
    });
  });

  it('sends "known, none" as an empty list', async () => {
    const { fetchMock, user } = renderModal(undefined);
    await user.click(screen.getByLabelText('Known: exactly the ones ticked below'));
    expect(screen.getByLabelText('Tools')).toHaveProperty('disabled', false);
    expect(screen.getByText('None ticked: the model is known to support none of them.')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(1));
    expect(sentBody(fetchMock)).toMatchObject({ capabilities: [] });
  });

  it('refuses an output cap above the context window without calling the gateway', async () => {
    const { fetchMock, user } = renderModal(stored);
    fill(screen.getByLabelText('Max output tokens'), '200000');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(screen.getByText('Cannot be larger than the context window')).toBeTruthy();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('shows the gateway’s refusal', async () => {
    mockFetch(() => ({
      status: 400,
      body: {
        error: {
          message: 'capabilities.0: unknown capability',
          type: 'gateway_api_error',
          param: 'capabilities',
          code: 'invalid_request',
        },
      },
    }));
    renderWithProviders(<ModelMetadataModal target={{ model: 'o3', metadata: stored }} onClose={() => {}} />);
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect((await screen.findByRole('alert')).textContent).toContain('capabilities.0: unknown capability');
  });
});
