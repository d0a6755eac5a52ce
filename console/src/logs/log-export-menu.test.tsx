/** @vitest-environment jsdom */
import { fireEvent, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockFetch } from '../test/mock-fetch';
import { renderWithProviders } from '../test/render-with-providers';
import { EMPTY_LOG_FILTERS } from './log-filters';
import { LogExportMenu } from './log-export-menu';
import { LogsView } from './logs-view';

afterEach(() => {
  vi.unstubAllGlobals();
});

const EMPTY_PAGE = {
  status: 200,
  body: { data: [], total: { requests: 0, prompt_tokens: 0, completion_tokens: 0, cost: 0 } },
};

/** The menu's download links by their text, once the menu is open. */
async function openExportMenu(buttonName: string) {
  await userEvent.setup({ delay: null }).click(screen.getByRole('button', { name: buttonName }));
  return (name: string) => screen.getByRole('menuitem', { name }) as HTMLAnchorElement;
}

describe('LogExportMenu', () => {
  it('offers JSON Lines and CSV as download links of the export', async () => {
    renderWithProviders(<LogExportMenu filters={{ ...EMPTY_LOG_FILTERS, model: 'gpt-4o' }} />);
    const item = await openExportMenu('Export');
    expect(screen.getByText('Every record the filters match, oldest first')).toBeTruthy();
    const jsonl = item('JSON Lines (.jsonl)');
    expect(jsonl.tagName).toBe('A');
    expect(jsonl.getAttribute('href')).toBe('/api/logs/export?format=jsonl&model=gpt-4o');
    expect(jsonl.getAttribute('download')).toBe('usage-logs.jsonl');
    const csv = item('CSV (.csv)');
    expect(csv.getAttribute('href')).toBe('/api/logs/export?format=csv&model=gpt-4o');
    expect(csv.getAttribute('download')).toBe('usage-logs.csv');
  });

  it('speaks Chinese', async () => {
    renderWithProviders(<LogExportMenu filters={EMPTY_LOG_FILTERS} />, { language: 'zh-CN' });
    const item = await openExportMenu('导出');
    expect(screen.getByText('按当前筛选导出全部记录, 最早的在前')).toBeTruthy();
    expect(item('CSV (.csv)').getAttribute('href')).toBe('/api/logs/export?format=csv');
  });
});

describe('LogsView export', () => {
  it('exports with the filters applied on the admin page', async () => {
    mockFetch(() => EMPTY_PAGE);
    renderWithProviders(
      <LogsView scope="admin" filterOptions={{ keys: [] }} names={{ keyName: (id) => `#${id}` }} />,
    );
    fireEvent.change(screen.getByLabelText('Model'), { target: { value: 'claude-sonnet-4' } });
    // Typed but not applied yet: the export follows what the table shows.
    let item = await openExportMenu('Export');
    expect(item('CSV (.csv)').getAttribute('href')).toBe('/api/logs/export?format=csv');
    await userEvent.setup({ delay: null }).click(screen.getByRole('button', { name: 'Apply' }));
    item = await openExportMenu('Export');
    expect(item('CSV (.csv)').getAttribute('href')).toBe('/api/logs/export?format=csv&model=claude-sonnet-4');
  });

  it('is not offered on a user’s own logs', () => {
    mockFetch(() => EMPTY_PAGE);
    renderWithProviders(
      <LogsView scope="own" filterOptions={{ keys: [] }} names={{ keyName: (id) => `#${id}` }} />,
    );
    expect(screen.queryByRole('button', { name: 'Export' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Refresh' })).toBeTruthy();
  });
});
