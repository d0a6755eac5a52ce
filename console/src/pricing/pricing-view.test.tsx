/** @vitest-environment jsdom */
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../test/render-with-providers';
import type { ModelPricing } from './model-pricing';
import { PricingView } from './pricing-view';

function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

const mini: ModelPricing = {
  model: 'gpt-4o-mini',
  input: 0.15,
  output: 0.6,
  cached_input: 0.075,
  cache_write: null,
  per_request: null,
  endpoint_types: ['openai', 'openai-response'],
  context_window: 128_000,
  capabilities: ['tools', 'vision'],
};

const whisper: ModelPricing = {
  ...mini,
  model: 'whisper-1',
  input: 0,
  output: 0,
  cached_input: null,
  endpoint_types: ['audio-transcription'],
  context_window: null,
  capabilities: null,
  per_minute: 0.006,
};

afterEach(() => {
  vi.unstubAllGlobals();
});

/** The text of the cell under `column` in the row of `model`. */
function cell(model: string, column: string): string | null | undefined {
  const row = within(screen.getByRole('table', { name: 'Prices' }))
    .getByText(model)
    .closest('tr');
  return row?.querySelector(`td[data-label="${column}"]`)?.textContent;
}

describe('PricingView', () => {
  it('lists each model’s prices per 1M tokens, its other prices, context window and capabilities', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => json({ data: [mini, whisper] })),
    );
    renderWithProviders(<PricingView />, { route: '/pricing' });
    await screen.findByRole('table', { name: 'Prices' });
    expect(cell('gpt-4o-mini', 'Input')).toBe('$0.15');
    expect(cell('gpt-4o-mini', 'Output')).toBe('$0.60');
    expect(cell('gpt-4o-mini', 'Cached input')).toBe('$0.075');
    expect(cell('gpt-4o-mini', 'Cache write')).toBe('—');
    expect(cell('gpt-4o-mini', 'Context window')).toBe('128,000');
    expect(cell('gpt-4o-mini', 'Capabilities')).toBe('ToolsImage input');
    expect(cell('whisper-1', 'Other prices')).toBe('$0.006 per minute of audio');

    const user = userEvent.setup({ delay: null });
    await user.type(screen.getByLabelText('Search models'), 'WHISPER');
    expect(within(screen.getByRole('table', { name: 'Prices' })).queryByText('gpt-4o-mini')).toBeNull();
  });

  it('asks to sign in where prices are for signed-in users only', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () =>
        json({ error: { message: 'Sign in first', type: 'gateway_api_error', code: 'unauthorized' } }, 401),
      ),
    );
    renderWithProviders(<PricingView />, { route: '/pricing', language: 'zh-CN' });
    const prompt = await screen.findByRole('status');
    expect(prompt.textContent).toBe('此网关的价格仅对已登录用户显示。 登录');
    expect(within(prompt).getByRole('link', { name: '登录' }).getAttribute('href')).toBe('/');
  });
});
