import { describe, expect, it } from 'vitest';
import { parseDraft, settingsChanges, withoutSettings } from './settings-changes';

const current = {
  default_max_tokens: 8192,
  web_search_price: 0.01,
  trusted_proxies: [],
  image_fetch_allow_private: false,
  future_setting: 3,
};

describe('settingsChanges', () => {
  it('sends only the settings that changed, in their API types', () => {
    expect(
      settingsChanges(current, {
        default_max_tokens: 8192,
        web_search_price: '0.02',
        trusted_proxies: ['10.0.0.0/8, 192.168.0.0/16'],
        image_fetch_allow_private: true,
        future_setting: 3,
      }),
    ).toEqual({
      web_search_price: 0.02,
      trusted_proxies: ['10.0.0.0/8', '192.168.0.0/16'],
      image_fetch_allow_private: true,
    });
  });

  it('leaves out values that are not valid yet', () => {
    expect(settingsChanges(current, { default_max_tokens: '', web_search_price: 'x' })).toEqual({});
    expect(parseDraft('default_max_tokens', 8192, 1.5)).toBeUndefined();
  });
});

describe('settingsChanges of text settings', () => {
  const spendLimits = {
    budget_time_zone: 'UTC',
    webhook_url: null,
    webhook_secret: 'whse...ghij',
    future_text: 'a',
    future_nullable: null,
  };

  it('sends nothing for the values as read, the masked secret included', () => {
    expect(settingsChanges(spendLimits, { ...spendLimits })).toEqual({});
  });

  it('sends a typed value trimmed, and an emptied nullable setting as null', () => {
    expect(
      settingsChanges(spendLimits, {
        budget_time_zone: ' Europe/Berlin ',
        webhook_url: 'https://hooks.example.com/in',
        webhook_secret: '',
        future_text: 'b',
        future_nullable: 'set',
      }),
    ).toEqual({
      budget_time_zone: 'Europe/Berlin',
      webhook_url: 'https://hooks.example.com/in',
      webhook_secret: null,
      future_text: 'b',
      future_nullable: 'set',
    });
  });

  it('leaves out an emptied setting that cannot be null', () => {
    expect(parseDraft('budget_time_zone', 'UTC', '  ')).toBeUndefined();
    expect(parseDraft('future_text', 'a', '')).toBeUndefined();
    expect(parseDraft('webhook_url', 'https://hooks.example.com', '')).toBeNull();
  });
});

describe('settingsChanges of the routing settings', () => {
  const routing = { routing_strategy: 'weighted', sticky_ttl_s: 600 };

  it('sends a chosen strategy and a whole TTL', () => {
    expect(settingsChanges(routing, { routing_strategy: 'latency', sticky_ttl_s: '900' })).toEqual({
      routing_strategy: 'latency',
      sticky_ttl_s: 900,
    });
    expect(settingsChanges(routing, { ...routing })).toEqual({});
  });

  it('leaves out a strategy the gateway does not take and a fractional TTL', () => {
    expect(parseDraft('routing_strategy', 'weighted', 'fastest')).toBeUndefined();
    expect(parseDraft('sticky_ttl_s', 600, 1.5)).toBeUndefined();
  });

  it('keeps a newer gateway’s own strategy valid', () => {
    expect(parseDraft('routing_strategy', 'cost', 'cost')).toBe('cost');
  });
});

describe('settingsChanges of the log settings', () => {
  it('sends a retention in days, fractions allowed, and a redaction mode', () => {
    expect(
      settingsChanges(
        { log_retention_days: 0, redact_pii: 'off' },
        { log_retention_days: '7.5', redact_pii: 'upstream' },
      ),
    ).toEqual({ log_retention_days: 7.5, redact_pii: 'upstream' });
  });

  it('leaves out a retention that is not a number and a mode the gateway does not take', () => {
    expect(parseDraft('log_retention_days', 0, 'a week')).toBeUndefined();
    expect(parseDraft('redact_pii', 'off', 'everything')).toBeUndefined();
  });
});

describe('settingsChanges of the body settings', () => {
  it('sends a body retention in days, fractions allowed, and a body limit in whole bytes', () => {
    expect(
      settingsChanges(
        { body_retention_days: 7, body_log_max_bytes: 1_048_576 },
        { body_retention_days: '0.5', body_log_max_bytes: 65_536 },
      ),
    ).toEqual({ body_retention_days: 0.5, body_log_max_bytes: 65_536 });
  });

  it('leaves out a fraction of a byte, which the gateway does not take', () => {
    expect(parseDraft('body_log_max_bytes', 1_048_576, '2048.5')).toBeUndefined();
  });
});

describe('withoutSettings', () => {
  it('leaves out the named settings, so a draft of them is never sent', () => {
    const writable = withoutSettings(current, ['default_max_tokens', 'trusted_proxies']);
    expect(writable).toEqual({ web_search_price: 0.01, image_fetch_allow_private: false, future_setting: 3 });
    expect(settingsChanges(writable, { default_max_tokens: 1024, web_search_price: '0.02' })).toEqual({
      web_search_price: 0.02,
    });
  });
});
