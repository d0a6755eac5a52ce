/** @vitest-environment jsdom */
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Group } from '../api/types';
import { mockFetch } from '../test/mock-fetch';
import { renderWithProviders } from '../test/render-with-providers';
import { GroupForm } from './group-form';

const team: Group = {
  name: 'team-a',
  ratio: 1.5,
  budgets: [
    {
      period: 'month',
      hours: null,
      usd: 100,
      tokens: null,
      requests: null,
      models: null,
      alert_at: [0.5, 0.9],
    },
  ],
  max_concurrency: 8,
  log_bodies: false,
  managed: 'api',
};

afterEach(() => {
  vi.unstubAllGlobals();
});

function fill(field: HTMLElement, text: string) {
  fireEvent.change(field, { target: { value: text } });
}

describe('GroupForm', () => {
  it('puts the ratio, the concurrency cap and the budgets of the chosen group', async () => {
    const fetchMock = mockFetch((_url, init) => ({
      status: 200,
      body: { name: 'team-a', ...JSON.parse(String(init?.body)) },
    }));
    renderWithProviders(<GroupForm selected={team} />);
    const first = within(screen.getByRole('group', { name: 'Budget 1' }));
    expect(first.getByLabelText('USD limit')).toHaveProperty('value', '100');
    fill(first.getByLabelText('Request limit'), '5000');
    fill(screen.getByLabelText(/^Max concurrent requests/), '4');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(1));
    const [url, init] = fetchMock.mock.calls[0] ?? [];
    expect(url).toBe('/api/groups/team-a');
    expect(init?.method).toBe('PUT');
    expect(JSON.parse(String(init?.body))).toEqual({
      ratio: 1.5,
      budgets: [
        {
          period: 'month',
          hours: null,
          usd: 100,
          tokens: null,
          requests: 5000,
          models: null,
          alert_at: [0.5, 0.9],
        },
      ],
      max_concurrency: 4,
      log_bodies: false,
    });
  });

  it.each([
    [false, true],
    [true, false],
  ])('shows log_bodies %s of the chosen group and puts %s once switched', async (stored, sent) => {
    const fetchMock = mockFetch((_url, init) => ({
      status: 200,
      body: { name: 'team-a', ...JSON.parse(String(init?.body)) },
    }));
    renderWithProviders(<GroupForm selected={{ ...team, log_bodies: stored }} />);
    const storeBodies = screen.getByRole('switch', { name: /^Store request and response bodies/ });
    await waitFor(() => expect(storeBodies).toHaveProperty('checked', stored));
    const user = userEvent.setup({ delay: null });
    await user.click(storeBodies);
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(1));
    expect(JSON.parse(String(fetchMock.mock.calls[0]?.[1]?.body))).toMatchObject({
      ratio: 1.5,
      log_bodies: sent,
    });
  });

  it('shows the gateway’s refusal of a budget', async () => {
    mockFetch(() => ({
      status: 400,
      body: {
        error: {
          message: 'budgets.0.models.0: unknown model',
          type: 'gateway_api_error',
          code: 'invalid_request',
        },
      },
    }));
    renderWithProviders(<GroupForm selected={team} />);
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect((await screen.findByRole('alert')).textContent).toContain('budgets.0.models.0: unknown model');
  });
});
