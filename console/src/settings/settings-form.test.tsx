/** @vitest-environment jsdom */
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockFetch } from '../test/mock-fetch';
import { renderWithProviders } from '../test/render-with-providers';
import { SettingsForm } from './settings-form';

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('SettingsForm routing settings', () => {
  it('offers the channel choice by name and patches only it', async () => {
    const fetchMock = mockFetch((_url, init) => ({
      status: 200,
      body: { routing_strategy: 'weighted', sticky_ttl_s: 600, ...JSON.parse(String(init?.body)) },
    }));
    renderWithProviders(<SettingsForm settings={{ routing_strategy: 'weighted', sticky_ttl_s: 600 }} />);
    const choice = screen.getByLabelText(/^Channel choice/);
    expect([...choice.querySelectorAll('option')].map((option) => option.textContent)).toEqual([
      'Weighted random',
      'Lowest latency',
    ]);
    expect(screen.getByLabelText(/^Prompt-cache affinity/)).toHaveProperty('value', '600');
    expect(screen.getByText('Environment variable: GATEWAY_STICKY_TTL_S')).toBeTruthy();
    const user = userEvent.setup({ delay: null });
    await user.selectOptions(choice, 'latency');
    await user.click(screen.getByRole('button', { name: 'Save settings' }));
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(1));
    const [url, init] = fetchMock.mock.calls[0] ?? [];
    expect(url).toBe('/api/settings');
    expect(init?.method).toBe('PATCH');
    expect(JSON.parse(String(init?.body))).toEqual({ routing_strategy: 'latency' });
  });

  it('names them in Chinese', () => {
    renderWithProviders(<SettingsForm settings={{ routing_strategy: 'latency', sticky_ttl_s: 600 }} />, {
      language: 'zh-CN',
    });
    expect(screen.getByLabelText(/^渠道选择方式/)).toHaveProperty('value', 'latency');
    expect(screen.getByRole('option', { name: '延迟最低' })).toBeTruthy();
    expect(screen.getByLabelText(/^提示缓存亲和时长/)).toBeTruthy();
  });
});
