import { describe, expect, it } from 'vitest';
import { EMPTY_LOG_FILTERS, logQuery } from './log-filters';

describe('logQuery', () => {
  it('leaves empty filters out', () => {
    expect(logQuery(EMPTY_LOG_FILTERS, { limit: 50, offset: 0 })).toEqual({
      user_id: undefined,
      key_id: undefined,
      channel_id: undefined,
      model: undefined,
      status: undefined,
      from: undefined,
      to: undefined,
      limit: 50,
      offset: 0,
    });
  });

  it('sends every filter, the time range in Unix seconds with the last minute whole', () => {
    const from = Math.floor(new Date(2025, 4, 1, 9, 30).getTime() / 1000);
    const query = logQuery(
      {
        userId: '2',
        keyId: '5',
        channelId: '9',
        model: ' gpt-4o ',
        status: 'error',
        from: '2025-05-01T09:30',
        to: '2025-05-01T10:00',
      },
      { limit: 50, offset: 100 },
    );
    expect(query).toEqual({
      user_id: '2',
      key_id: '5',
      channel_id: '9',
      model: 'gpt-4o',
      status: 'error',
      from,
      to: from + 30 * 60 + 59,
      limit: 50,
      offset: 100,
    });
  });
});
