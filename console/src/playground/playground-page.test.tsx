/** @vitest-environment jsdom */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { chatStreamText, sseResponse } from '../test/sse-response';
import { renderWithProviders } from '../test/render-with-providers';
import { PLAYGROUND_KEY_NAME } from './playground-key';
import { PlaygroundPage } from './playground-page';

const alice = {
  id: 3,
  username: 'alice',
  role: 'user',
  language: null,
  group: 'default',
  used: 0,
  root: false,
};

function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

afterEach(() => {
  vi.unstubAllGlobals();
  window.sessionStorage.clear();
});

/** A gateway that makes the playground's key, lists two models, streams one answer and logs what it cost. */
function fakeGateway() {
  let balance = 5;
  let logLookups = 0;
  const fetchMock = vi.fn(async (url: string, init?: RequestInit) => {
    const method = init?.method ?? 'GET';
    if (url === '/api/auth/me') return json({ ...alice, balance });
    if (url === '/api/me') return json({ ...alice, balance });
    if (url.startsWith('/api/me/keys') && method === 'GET') return json({ data: [] });
    if (url === '/api/me/keys' && method === 'POST') {
      return json({ id: 11, key: 'sk-playground-secret', name: PLAYGROUND_KEY_NAME, status: 'enabled' }, 201);
    }
    if (url === '/v1/models') {
      const authorization = (init?.headers as Record<string, string>).authorization;
      if (authorization === 'Bearer sk-deleted') {
        return json(
          { error: { message: 'Invalid token', type: 'gateway_api_error', code: 'invalid_api_key' } },
          401,
        );
      }
      return json({
        data: [
          { id: 'gpt-4o-mini', supported_endpoint_types: ['openai'] },
          { id: 'text-embedding-3-small', supported_endpoint_types: ['embeddings'] },
        ],
      });
    }
    if (url === '/v1/chat/completions') {
      return sseResponse(
        [
          chatStreamText({
            texts: ['Hello ', 'from ', 'the playground.'],
            promptTokens: 12,
            completionTokens: 5,
          }),
        ],
        { requestId: 'req-abc' },
      );
    }
    if (url.startsWith('/api/me/logs')) {
      logLookups += 1;
      // The usage writer is batched: the record shows up on the second look.
      if (logLookups < 2) return json({ data: [], total: {} });
      balance = 4.999_877;
      return json({
        data: [
          { id: 90, request_id: 'req-other', cost: 1, prompt_tokens: 1, completion_tokens: 1 },
          { id: 91, request_id: 'req-abc', cost: 0.000_123, prompt_tokens: 12, completion_tokens: 5 },
        ],
        total: {},
      });
    }
    return json({ error: { message: `unexpected ${method} ${url}` } }, 404);
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

describe('PlaygroundPage', () => {
  it('streams the answer with the playground’s own key, then shows its tokens and the cost charged', async () => {
    const fetchMock = fakeGateway();
    renderWithProviders(<PlaygroundPage />, { route: '/playground' });
    const model = await screen.findByRole('combobox', { name: 'Model' });
    // Only chat models are offered; the first is chosen.
    await waitFor(() =>
      expect(
        within(model)
          .getAllByRole('option')
          .map((option) => option.textContent),
      ).toEqual(['gpt-4o-mini']),
    );
    await waitFor(() => expect((model as HTMLSelectElement).value).toBe('gpt-4o-mini'));
    const user = userEvent.setup({ delay: null });
    await user.type(screen.getByRole('textbox', { name: 'Message' }), 'Say hello');
    await user.click(screen.getByRole('button', { name: 'Send' }));

    const conversation = within(await screen.findByRole('log', { name: 'Conversation' }));
    expect(conversation.getByText('Say hello')).toBeTruthy();
    await waitFor(() =>
      expect(conversation.getByTestId('answer-text').textContent).toBe('Hello from the playground.'),
    );
    await waitFor(
      () =>
        expect(conversation.getByTestId('answer-stats').textContent).toBe(
          '12 tokens in · 5 out · cost $0.000123',
        ),
      { timeout: 4000 },
    );
    await waitFor(() =>
      expect(screen.getByTestId('playground-balance').textContent).toBe('Balance: $4.999877'),
    );

    const chat = fetchMock.mock.calls.find(([url]) => url === '/v1/chat/completions');
    const headers = chat?.[1]?.headers as Record<string, string>;
    expect(headers.authorization).toBe('Bearer sk-playground-secret');
    const created = fetchMock.mock.calls.find(
      ([url, init]) => url === '/api/me/keys' && init?.method === 'POST',
    );
    const body = JSON.parse(String(created?.[1]?.body)) as Record<string, unknown>;
    expect(body.name).toBe(PLAYGROUND_KEY_NAME);
    expect(body.expires_at).toBeGreaterThan(Date.now() / 1000);
    // The secret stays in this tab only.
    expect(window.sessionStorage.getItem('gw_playground_key')).toContain('sk-playground-secret');
    expect(window.localStorage.length).toBe(0);
    expect(fetchMock.mock.calls.some(([url]) => String(url).includes('key_id=11'))).toBe(true);
  });

  it('replaces a key the tab kept that the gateway no longer accepts', async () => {
    window.sessionStorage.setItem(
      'gw_playground_key',
      JSON.stringify({ id: 5, key: 'sk-deleted', userId: 3, expiresAt: Date.now() / 1000 + 3600 }),
    );
    const fetchMock = fakeGateway();
    renderWithProviders(<PlaygroundPage />, { route: '/playground' });
    const model = await screen.findByRole('combobox', { name: 'Model' });
    await waitFor(() => expect((model as HTMLSelectElement).value).toBe('gpt-4o-mini'));
    expect(
      fetchMock.mock.calls.filter(([url, init]) => url === '/api/me/keys' && init?.method === 'POST'),
    ).toHaveLength(1);
    expect(window.sessionStorage.getItem('gw_playground_key')).toContain('sk-playground-secret');
  });

  it('tells the root admin that the playground needs an account', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => json({ id: 0, username: 'root', role: 'admin', language: null, root: true })),
    );
    renderWithProviders(<PlaygroundPage />, { route: '/playground', language: 'zh-CN' });
    expect((await screen.findByRole('status')).textContent).toBe(
      '根管理员没有可扣费的账户: 请使用用户账户登录后使用操练场。',
    );
  });
});
