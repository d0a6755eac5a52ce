/** @vitest-environment jsdom */
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { UsageLog } from '../api/types';
import { renderWithProviders } from '../test/render-with-providers';
import { LogsTable } from './logs-table';

function log(id: number, fields: Partial<UsageLog>): UsageLog {
  return {
    id,
    request_id: `req-${id}`,
    created_at: 1_700_000_000,
    user_id: 1,
    key_id: 2,
    channel_id: 3,
    model: 'gpt-4o',
    endpoint: 'chat',
    stream: false,
    status_code: 200,
    prompt_tokens: 10,
    completion_tokens: 5,
    cached_tokens: 0,
    cache_write_tokens: 0,
    reasoning_tokens: 0,
    cost: 0.001,
    latency_ms: 300,
    first_byte_ms: null,
    error: null,
    ...fields,
  };
}

/** The text lines of the Model cell of a body row (counted from 1). */
function modelCell(row: number): string[] {
  const rows = within(screen.getByRole('table', { name: 'Logs' })).getAllByRole('row');
  const cell = rows[row]?.querySelector('td[data-label="Model"]');
  if (!cell) throw new Error(`row ${row} has no Model cell`);
  return [...cell.querySelectorAll('p')].map((line) => line.textContent);
}

describe('LogsTable', () => {
  it('shows the requested model beside the served one only when they differ', () => {
    renderWithProviders(
      <LogsTable
        keyName={(id) => `#${id}`}
        logs={[
          log(1, { model: 'gpt-4o-mini', requested_model: 'team/fast' }),
          log(2, { requested_model: 'gpt-4o' }),
          log(3, { requested_model: null }),
          log(4, {}),
        ]}
      />,
    );
    expect(modelCell(1)).toEqual(['gpt-4o-mini', 'requested: team/fast']);
    expect(modelCell(2)).toEqual(['gpt-4o']);
    expect(modelCell(3)).toEqual(['gpt-4o']);
    expect(modelCell(4)).toEqual(['gpt-4o']);
  });

  it('says it in Chinese too', () => {
    renderWithProviders(
      <LogsTable keyName={(id) => `#${id}`} logs={[log(1, { model: 'o3', requested_model: 'smart' })]} />,
      { language: 'zh-CN' },
    );
    expect(screen.getByText('请求的模型: smart')).toBeTruthy();
  });
});
