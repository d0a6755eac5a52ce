/** @vitest-environment jsdom */
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { UsageLogDetail } from '../api/types';
import { mockFetch } from '../test/mock-fetch';
import { renderWithProviders } from '../test/render-with-providers';
import { usageLog, usageLogDetail } from '../test/usage-log-fixture';
import { LogDetailDrawer } from './log-detail-drawer';

afterEach(() => {
  vi.unstubAllGlobals();
});

const REQUEST = { model: 'gpt-4o', messages: [{ role: 'user', content: 'Say hi' }], stream: true };

const STREAM =
  'data: {"id":"c1","choices":[{"delta":{"content":"Hi"}}]}\n\n' +
  'event: usage\r\ndata: {"prompt_tokens":3,\r\ndata: "completion_tokens":1}\r\n\r\n' +
  ': keep-alive\n\n' +
  'data: [DONE]\n\n';

/** Opens the drawer on record 7, which the fake gateway answers with `detail`; returns the fetch mock. */
function openDetail(options: { scope?: 'admin' | 'own'; detail: Partial<UsageLogDetail> }) {
  const fetchMock = mockFetch(() => ({ status: 200, body: usageLogDetail(7, options.detail) }));
  renderWithProviders(
    <LogDetailDrawer
      scope={options.scope ?? 'admin'}
      log={usageLog(7, { request_id: 'req-seven' })}
      names={{ keyName: (id) => `laptop (#${id})` }}
      onClose={() => undefined}
    />,
  );
  return fetchMock;
}

/** The text of a body's section, once the detail has arrived. */
async function bodySection(name: string) {
  return within(await screen.findByRole('region', { name }));
}

describe('LogDetailDrawer', () => {
  it('fetches the admin’s record and shows its fields and its request body indented', async () => {
    const fetchMock = openDetail({
      detail: {
        model: 'gpt-4o-mini',
        requested_model: 'team/fast',
        status_code: 502,
        error: 'upstream said no',
        request_body: JSON.stringify(REQUEST),
        response_body: '{"error":{"message":"no"}}',
      },
    });
    const dialog = within(screen.getByRole('dialog', { name: 'Request req-seven' }));
    const request = await bodySection('Request body');
    expect(fetchMock.mock.calls[0]?.[0]).toBe('/api/logs/7');
    expect(request.getByText(/"model"/).textContent).toBe(JSON.stringify(REQUEST, null, 2));
    expect((await bodySection('Response body')).getByText(/"error"/).textContent).toBe(
      '{\n  "error": {\n    "message": "no"\n  }\n}',
    );
    const line = (label: string) => dialog.getByRole('rowheader', { name: label }).nextElementSibling;
    expect(line('Key')?.textContent).toBe('laptop (#2)');
    expect(line('Model')?.textContent).toBe('gpt-4o-minirequested: team/fast');
    expect(line('Status')?.textContent).toBe('502');
    expect(line('Error')?.textContent).toBe('upstream said no');
    expect(dialog.queryByRole('rowheader', { name: 'Audio' })).toBeNull();
    expect(request.getByRole('button', { name: 'Copy request body' })).toBeTruthy();
  });

  it('shows the seconds of audio a transcription was billed by', async () => {
    openDetail({ detail: { endpoint: 'audio-transcriptions', audio_seconds: 3 } });
    const dialog = within(screen.getByRole('dialog', { name: 'Request req-seven' }));
    const audio = await dialog.findByRole('rowheader', { name: 'Audio' });
    expect(audio.nextElementSibling?.textContent).toBe('3 s audio');
  });

  it('reads the user’s own record from /api/me/logs and lists a streamed reply’s events', async () => {
    const fetchMock = openDetail({
      scope: 'own',
      detail: { stream: true, request_body: JSON.stringify(REQUEST), response_body: STREAM },
    });
    const response = await bodySection('Response body');
    expect(fetchMock.mock.calls[0]?.[0]).toBe('/api/me/logs/7');
    expect(response.getByText('A stream of 3 events')).toBeTruthy();
    const events = response.getAllByRole('listitem').map((item) => item.textContent);
    expect(events).toEqual([
      `#1${JSON.stringify({ id: 'c1', choices: [{ delta: { content: 'Hi' } }] }, null, 2)}`,
      `#2usage${JSON.stringify({ prompt_tokens: 3, completion_tokens: 1 }, null, 2)}`,
      '#3[DONE]',
    ]);
    expect(screen.queryByText(/body_log_max_bytes/)).toBeNull();
  });

  it('warns that the bodies were cut, and shows a cut body as stored', async () => {
    openDetail({
      detail: {
        body_truncated: true,
        request_body: '{"model":"gpt-4o","messages":[{"ro',
        response_body: null,
      },
    });
    const request = await bodySection('Request body');
    expect(screen.getByRole('alert').textContent).toBe(
      'Bodies were cut at the body_log_max_bytes limit: the end of a long one is missing.',
    );
    expect(request.getByText('Not complete JSON: shown as stored.')).toBeTruthy();
    expect(request.getByText('{"model":"gpt-4o","messages":[{"ro')).toBeTruthy();
    expect((await bodySection('Response body')).getByText('Not stored.')).toBeTruthy();
  });

  it('says why there are no bodies when neither is stored', async () => {
    openDetail({ detail: { request_body: null, response_body: null } });
    expect(
      await screen.findByText(
        'The bodies of this request are not stored: body logging was off for its key and group, or they were removed after the body retention days.',
      ),
    ).toBeTruthy();
    expect(screen.queryByRole('region', { name: 'Request body' })).toBeNull();
    expect(screen.queryByRole('button', { name: /^Copy/ })).toBeNull();
  });

  it('speaks Chinese', async () => {
    mockFetch(() => ({
      status: 200,
      body: usageLogDetail(7, { body_truncated: true, request_body: '{}', response_body: '{}' }),
    }));
    renderWithProviders(
      <LogDetailDrawer
        scope="admin"
        log={usageLog(7)}
        names={{ keyName: (id) => `#${id}` }}
        onClose={() => undefined}
      />,
      { language: 'zh-CN' },
    );
    await waitFor(() => expect(screen.getByRole('region', { name: '响应体' })).toBeTruthy());
    expect(screen.getByRole('dialog', { name: '请求 req-7' })).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toContain('body_log_max_bytes');
    expect(screen.getByRole('button', { name: '复制请求体' })).toBeTruthy();
  });
});
