import { describe, expect, it } from 'vitest';
import { readEnvironment } from '../../src/config/environment.js';
import { defaultSettings } from '../../src/config/settings-schema.js';
import { parseConfigText } from '../../src/config-file/read-config-file.js';

/** Admin-api section 15's settings: defaults, environment variables, and the configuration file. */
describe('sign-up and pricing settings', () => {
  it('default to closed registration, no sign-up balance and public pricing', () => {
    expect(defaultSettings).toMatchObject({
      registration: 'closed',
      new_user_balance: 0,
      pricing_public: true,
    });
  });

  it('are read from GATEWAY_ variables', () => {
    const { settings } = readEnvironment({
      GATEWAY_REGISTRATION: 'invite',
      GATEWAY_NEW_USER_BALANCE: '1.25',
      GATEWAY_PRICING_PUBLIC: 'false',
    });
    expect(settings).toEqual({ registration: 'invite', new_user_balance: 1.25, pricing_public: false });
  });

  it.each([
    ['GATEWAY_REGISTRATION', 'everyone'],
    ['GATEWAY_NEW_USER_BALANCE', '-1'],
    ['GATEWAY_NEW_USER_BALANCE', '100000000'],
    ['GATEWAY_PRICING_PUBLIC', 'maybe'],
  ])('refuse %s=%s', (variable, value) => {
    expect(() => readEnvironment({ [variable]: value })).toThrow(`${variable} is invalid`);
  });

  it('are accepted by the configuration file, and checked there', () => {
    const valid = parseConfigText(
      'settings: { registration: open, new_user_balance: 0.5, pricing_public: false }',
      {},
    );
    expect(valid).toMatchObject({
      ok: true,
      config: { settings: { registration: 'open', new_user_balance: 0.5, pricing_public: false } },
    });
    const invalid = parseConfigText('settings: { registration: sometimes }', {});
    expect(invalid.ok).toBe(false);
    expect(invalid.ok ? [] : invalid.errors).toEqual([expect.stringContaining('settings.registration')]);
  });
});
