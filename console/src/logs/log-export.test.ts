import { describe, expect, it } from 'vitest';
import { logExportUrl } from './log-export';
import { EMPTY_LOG_FILTERS } from './log-filters';

describe('logExportUrl', () => {
  it('names the format alone when no filter is set, and no page', () => {
    expect(logExportUrl(EMPTY_LOG_FILTERS, 'jsonl')).toBe('/api/logs/export?format=jsonl');
    expect(logExportUrl(EMPTY_LOG_FILTERS, 'csv')).toBe('/api/logs/export?format=csv');
  });

  it('carries every filter as `/api/logs` takes it', () => {
    const from = Math.floor(new Date(2025, 4, 1, 9, 30).getTime() / 1000);
    const url = logExportUrl(
      {
        userId: '2',
        keyId: '5',
        channelId: '9',
        model: ' odd, "model" ',
        status: 'error',
        from: '2025-05-01T09:30',
        to: '2025-05-01T10:00',
      },
      'csv',
    );
    const [path, search] = url.split('?');
    expect(path).toBe('/api/logs/export');
    expect(Object.fromEntries(new URLSearchParams(search))).toEqual({
      format: 'csv',
      user_id: '2',
      key_id: '5',
      channel_id: '9',
      model: 'odd, "model"',
      status: 'error',
      from: String(from),
      to: String(from + 30 * 60 + 59),
    });
  });
});
