import { describe, expect, it } from 'vitest';
import { navigationItems } from './navigation-items';

const keys = (options: Parameters<typeof navigationItems>[0]) =>
  navigationItems(options).map((item) => item.key);

describe('navigationItems', () => {
  it('gives users the self-service pages, top-up only where it is offered', () => {
    expect(keys({ role: 'user', hasAccount: true, topUpOffered: true })).toEqual([
      'dashboard',
      'keys',
      'logs',
      'playground',
      'pricing',
      'redeem',
      'topUp',
      'quickStart',
    ]);
    expect(keys({ role: 'user', hasAccount: true, topUpOffered: false })).not.toContain('topUp');
  });

  it('gives admins the code and order pages, and the playground only with an account to charge', () => {
    const admin = keys({ role: 'admin', hasAccount: true, topUpOffered: true });
    expect(admin).toEqual(
      expect.arrayContaining(['redemptionCodes', 'inviteCodes', 'orders', 'pricing', 'playground']),
    );
    expect(keys({ role: 'admin', hasAccount: false, topUpOffered: true })).not.toContain('playground');
  });
});
