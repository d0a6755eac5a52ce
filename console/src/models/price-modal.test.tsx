/** @vitest-environment jsdom */
import { fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Price } from '../api/types';
import { mockFetch } from '../test/mock-fetch';
import { renderWithProviders } from '../test/render-with-providers';
import { PriceModal } from './price-modal';

const stored: Price = {
  model: 'gpt-4o-mini-transcribe',
  input: 1.25,
  output: 5,
  cached_input: null,
  cache_write: null,
  per_request: null,
  input_audio: 3,
  output_audio: null,
  per_minute: 0.003,
  per_million_characters: null,
  managed: 'api',
};

afterEach(() => {
  vi.unstubAllGlobals();
});

function fill(label: RegExp, text: string) {
  fireEvent.change(screen.getByLabelText(label), { target: { value: text } });
}

function renderModal(target: { model: string | undefined; price: Price | undefined }) {
  const fetchMock = mockFetch((url, init) => ({
    status: 200,
    body: { model: decodeURIComponent(url.split('/').pop() ?? ''), ...JSON.parse(String(init?.body)) },
  }));
  renderWithProviders(<PriceModal target={target} onClose={() => undefined} />);
  return { fetchMock, user: userEvent.setup({ delay: null }) };
}

function sentRequest(fetchMock: ReturnType<typeof mockFetch>): { url: string | undefined; body: unknown } {
  const [url, init] = fetchMock.mock.calls[0] ?? [];
  expect(init?.method).toBe('PUT');
  return { url, body: JSON.parse(String(init?.body)) };
}

describe('PriceModal', () => {
  it('puts the audio, per-minute and per-character prices of a new model', async () => {
    const { fetchMock, user } = renderModal({ model: undefined, price: undefined });
    fill(/^Model ID/, 'tts-1');
    fill(/^Input \(/, '0');
    fill(/^Output \(/, '0');
    fill(/^Audio input/, '2.5');
    fill(/^Audio output/, '10');
    fill(/^Per minute of audio/, '0.006');
    fill(/^Per 1M characters/, '15');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(1));
    expect(sentRequest(fetchMock)).toEqual({
      url: '/api/prices/tts-1',
      body: {
        input: 0,
        output: 0,
        cached_input: null,
        cache_write: null,
        per_request: null,
        input_audio: 2.5,
        output_audio: 10,
        per_minute: 0.006,
        per_million_characters: 15,
      },
    });
  });

  it('shows a stored price’s audio members, says what empty means, and sends null for a cleared one', async () => {
    const { fetchMock, user } = renderModal({ model: stored.model, price: stored });
    expect(screen.getByLabelText(/^Audio input/)).toHaveProperty('value', '3');
    expect(screen.getByLabelText(/^Audio output/)).toHaveProperty('value', '');
    expect(screen.getByLabelText(/^Per minute of audio/)).toHaveProperty('value', '0.003');
    expect(screen.getByText('Empty: the text input price')).toBeTruthy();
    expect(screen.getByText('Empty: the text output price')).toBeTruthy();
    await user.clear(screen.getByLabelText(/^Per minute of audio/));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(1));
    expect(sentRequest(fetchMock)).toEqual({
      url: '/api/prices/gpt-4o-mini-transcribe',
      body: {
        input: 1.25,
        output: 5,
        cached_input: null,
        cache_write: null,
        per_request: null,
        input_audio: 3,
        output_audio: null,
        per_minute: null,
        per_million_characters: null,
      },
    });
  });

  it('names the audio members in Chinese', () => {
    mockFetch(() => ({ status: 200, body: {} }));
    renderWithProviders(
      <PriceModal target={{ model: stored.model, price: stored }} onClose={() => undefined} />,
      {
        language: 'zh-CN',
      },
    );
    for (const label of [/^音频输入/, /^音频输出/, /^每分钟音频/, /^每百万字符/])
      expect(screen.getByLabelText(label)).toBeTruthy();
  });
});
