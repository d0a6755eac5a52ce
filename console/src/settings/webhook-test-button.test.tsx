/** @vitest-environment jsdom */
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockFetch, type FakeReply } from '../test/mock-fetch';
import { renderWithProviders } from '../test/render-with-providers';
import { WebhookTestButton } from './webhook-test-button';

afterEach(() => {
  vi.unstubAllGlobals();
});

async function sendWith(reply: FakeReply, language: 'en' | 'zh-CN' = 'en') {
  const fetchMock = mockFetch(() => reply);
  document.cookie = 'gw_csrf=csrf-1';
  renderWithProviders(<WebhookTestButton />, { language });
  await userEvent.click(
    screen.getByRole('button', { name: language === 'en' ? 'Send test event' : '发送测试事件' }),
  );
  await waitFor(() => expect(screen.getByRole('status').textContent).not.toBe(''));
  return { fetchMock, shown: screen.getByRole('status').textContent };
}

describe('WebhookTestButton', () => {
  it('posts the test event and says the receiver took it', async () => {
    const { fetchMock, shown } = await sendWith({
      status: 200,
      body: { ok: true, id: 'evt_1', status_code: 204, error: null },
    });
    expect(shown).toBe('Delivered: the receiver answered HTTP 204.');
    const [url, init] = fetchMock.mock.calls[0] ?? [];
    expect(url).toBe('/api/webhook-deliveries/test');
    expect(init?.method).toBe('POST');
    expect(init?.headers).toMatchObject({ 'X-CSRF-Token': 'csrf-1' });
  });

  it('shows the status code of a receiver that refused it', async () => {
    const { shown } = await sendWith({
      status: 200,
      body: { ok: false, id: 'evt_2', status_code: 500, error: null },
    });
    expect(shown).toBe('Not delivered: the receiver answered HTTP 500.');
  });

  it('shows why no answer came', async () => {
    const { shown } = await sendWith(
      {
        status: 200,
        body: { ok: false, id: 'evt_3', status_code: null, error: 'connect ECONNREFUSED 127.0.0.1:9' },
      },
      'zh-CN',
    );
    expect(shown).toBe('未送达: connect ECONNREFUSED 127.0.0.1:9');
  });

  it('shows the gateway’s refusal while no webhook URL is set', async () => {
    const { shown } = await sendWith({
      status: 400,
      body: {
        error: { message: 'webhook_url is not set', type: 'gateway_api_error', code: 'invalid_request' },
      },
    });
    expect(shown).toBe('webhook_url is not set');
  });
});
