/** @vitest-environment jsdom */
import { fireEvent, screen, waitFor } from '@testing-library/react';
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

describe('SettingsForm body settings', () => {
  const settings = { body_retention_days: 7, body_log_max_bytes: 1_048_576 };

  it('explains them and keeps the body limit within what the gateway takes', async () => {
    const fetchMock = mockFetch((_url, init) => ({
      status: 200,
      body: { ...settings, ...JSON.parse(String(init?.body)) },
    }));
    renderWithProviders(<SettingsForm settings={settings} />);
    const retention = screen.getByLabelText(/^Body retention \(days\)/);
    const limit = screen.getByLabelText(/^Stored body limit \(bytes\)/);
    expect(retention).toHaveProperty('value', '7');
    expect(limit).toHaveProperty('value', '1048576');
    expect(screen.getByText(/^Stored request and response bodies older than this are deleted/)).toBeTruthy();
    expect(screen.getByText('Environment variable: GATEWAY_BODY_LOG_MAX_BYTES')).toBeTruthy();
    const user = userEvent.setup({ delay: null });
    await user.clear(retention);
    await user.type(retention, '0');
    await user.clear(limit);
    await user.type(limit, '99999999');
    await user.tab();
    expect(limit).toHaveProperty('value', '16777216');
    await user.click(screen.getByRole('button', { name: 'Save settings' }));
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(1));
    expect(JSON.parse(String(fetchMock.mock.calls[0]?.[1]?.body))).toEqual({
      body_retention_days: 0,
      body_log_max_bytes: 16_777_216,
    });
  });

  it('names them in Chinese', () => {
    renderWithProviders(<SettingsForm settings={settings} />, { language: 'zh-CN' });
    expect(screen.getByLabelText(/^请求体和响应体保留天数/)).toHaveProperty('value', '7');
    expect(screen.getByLabelText(/^存储内容上限 \(字节\)/)).toBeTruthy();
  });
});

describe('SettingsForm and the configuration file', () => {
  const settings = { retry_times: 2, budget_time_zone: 'UTC', sticky_ttl_s: 600 };
  const configFile = { file: '/etc/gateway/gateway.yaml', settings: ['budget_time_zone', 'retry_times'] };

  it('shows the settings the file sets read-only, naming the file, and never sends them', async () => {
    const fetchMock = mockFetch((_url, init) => ({
      status: 200,
      body: { ...settings, ...JSON.parse(String(init?.body)) },
    }));
    renderWithProviders(<SettingsForm settings={settings} configFile={configFile} />);
    const retry = screen.getByLabelText(/^Retry times/);
    const timeZone = screen.getByLabelText(/^Budget time zone/);
    const affinity = screen.getByLabelText(/^Prompt-cache affinity/);
    expect(retry).toHaveProperty('disabled', true);
    expect(timeZone).toHaveProperty('disabled', true);
    expect(affinity).toHaveProperty('disabled', false);
    expect(
      screen.getAllByText('Set by the configuration file /etc/gateway/gateway.yaml: change it there.'),
    ).toHaveLength(2);
    // Past the turned-off input: a draft of a file's setting still stays out of the PATCH.
    fireEvent.change(timeZone, { target: { value: 'Asia/Shanghai' } });
    const user = userEvent.setup({ delay: null });
    await user.clear(affinity);
    await user.type(affinity, '900');
    await user.click(screen.getByRole('button', { name: 'Save settings' }));
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(1));
    expect(JSON.parse(String(fetchMock.mock.calls[0]?.[1]?.body))).toEqual({ sticky_ttl_s: 900 });
  });

  it('says "the configuration file" when the gateway names none', () => {
    renderWithProviders(
      <SettingsForm settings={settings} configFile={{ file: null, settings: ['retry_times'] }} />,
    );
    expect(screen.getByLabelText(/^Retry times/)).toHaveProperty('disabled', true);
    expect(screen.getByLabelText(/^Budget time zone/)).toHaveProperty('disabled', false);
    expect(screen.getByText('Set by the configuration file: change it there.')).toBeTruthy();
  });

  it('names the file in Chinese', () => {
    renderWithProviders(<SettingsForm settings={settings} configFile={configFile} />, { language: 'zh-CN' });
    expect(screen.getAllByText('由配置文件 /etc/gateway/gateway.yaml 设置, 请在该文件中修改。')).toHaveLength(
      2,
    );
  });
});
