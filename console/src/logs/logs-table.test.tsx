/** @vitest-environment jsdom */
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { UsageLog } from '../api/types';
import { renderWithProviders } from '../test/render-with-providers';
import { usageLog as log } from '../test/usage-log-fixture';
import { LogsTable } from './logs-table';

/** The text lines of the cell under `column` of a body row (counted from 1). */
function cellLines(row: number, column: string): string[] {
  const rows = within(screen.getByRole('table', { name: 'Logs' })).getAllByRole('row');
  const cell = rows[row]?.querySelector(`td[data-label="${column}"]`);
  if (!cell) throw new Error(`row ${row} has no ${column} cell`);
  return [...cell.querySelectorAll('p')].map((line) => line.textContent);
}

const modelCell = (row: number) => cellLines(row, 'Model');

describe('LogsTable', () => {
  it('shows the requested model beside the served one only when they differ', () => {
    renderWithProviders(
      <LogsTable
        keyName={(id) => `#${id}`}
        onOpen={() => undefined}
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
      <LogsTable
        keyName={(id) => `#${id}`}
        onOpen={() => undefined}
        logs={[log(1, { model: 'o3', requested_model: 'smart' })]}
      />,
      { language: 'zh-CN' },
    );
    expect(screen.getByText('请求的模型: smart')).toBeTruthy();
  });

  it('shows the seconds of audio or the characters of speech under the tokens', () => {
    renderWithProviders(
      <LogsTable
        keyName={(id) => `#${id}`}
        onOpen={() => undefined}
        logs={[
          log(1, { audio_seconds: 12.44, prompt_tokens: 0, completion_tokens: 0 }),
          log(2, { characters: 1234, prompt_tokens: 0, completion_tokens: 0 }),
          log(3, { characters: 1 }),
          log(4, { audio_seconds: 3 }),
          log(5, {}),
        ]}
      />,
    );
    const tokens = 'Tokens (in / out)';
    expect(cellLines(1, tokens)).toEqual(['0 / 0', '12.4 s audio']);
    expect(cellLines(2, tokens)).toEqual(['0 / 0', '1,234 chars']);
    expect(cellLines(3, tokens)).toEqual(['10 / 5', '1 char']);
    expect(cellLines(4, tokens)).toEqual(['10 / 5', '3 s audio']);
    expect(cellLines(5, tokens)).toEqual(['10 / 5']);
  });

  it('shows them in Chinese too', () => {
    renderWithProviders(
      <LogsTable
        keyName={(id) => `#${id}`}
        onOpen={() => undefined}
        logs={[log(1, { audio_seconds: 12.4 }), log(2, { characters: 1234 })]}
      />,
      { language: 'zh-CN' },
    );
    expect(screen.getByText('12.4 秒音频')).toBeTruthy();
    expect(screen.getByText('1,234 个字符')).toBeTruthy();
  });

  it('opens the details of the record whose button is pressed', async () => {
    const onOpen = vi.fn<(log: UsageLog) => void>();
    const second = log(2, { request_id: 'req-second' });
    renderWithProviders(<LogsTable keyName={(id) => `#${id}`} onOpen={onOpen} logs={[log(1), second]} />);
    const button = screen.getByRole('button', { name: 'Details of request req-second' });
    expect(button.textContent).toBe('Details');
    await userEvent.setup({ delay: null }).click(button);
    expect(onOpen.mock.calls).toEqual([[second]]);
  });
});
