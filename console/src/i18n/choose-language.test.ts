import { describe, expect, it } from 'vitest';
import { chooseLanguage, matchLanguage } from './choose-language';

describe('chooseLanguage', () => {
  it('prefers the account’s saved language', () => {
    expect(chooseLanguage({ account: 'zh-CN', stored: 'en', browser: ['en-US'] })).toBe('zh-CN');
    expect(chooseLanguage({ account: 'en', stored: 'zh-CN', browser: ['zh-CN'] })).toBe('en');
  });

  it('then the choice kept in this browser', () => {
    expect(chooseLanguage({ account: null, stored: 'zh-CN', browser: ['en-US'] })).toBe('zh-CN');
  });

  it('then the first browser language it knows', () => {
    expect(chooseLanguage({ account: null, stored: null, browser: ['fr-FR', 'zh-TW', 'en'] })).toBe('zh-CN');
    expect(chooseLanguage({ account: undefined, stored: 'de', browser: ['de', 'en-GB'] })).toBe('en');
  });

  it('else English', () => {
    expect(chooseLanguage({ account: null, stored: null, browser: ['fr'] })).toBe('en');
    expect(chooseLanguage({ account: null, stored: null, browser: [] })).toBe('en');
  });
});

describe('matchLanguage', () => {
  it('maps every Chinese tag to zh-CN', () => {
    expect(matchLanguage('zh')).toBe('zh-CN');
    expect(matchLanguage('zh-Hans-CN')).toBe('zh-CN');
    expect(matchLanguage('EN-us')).toBe('en');
    expect(matchLanguage('ja')).toBeUndefined();
  });
});
