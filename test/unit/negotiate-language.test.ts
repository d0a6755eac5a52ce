import { describe, expect, it } from 'vitest';
import { negotiateLanguage } from '../../src/http/negotiate-language.js';

describe('negotiateLanguage', () => {
  it('is English without a header or without a known language', () => {
    expect(negotiateLanguage(undefined)).toBe('en');
    expect(negotiateLanguage('')).toBe('en');
    expect(negotiateLanguage('*')).toBe('en');
    expect(negotiateLanguage('fr-FR,fr;q=0.9,de;q=0.8')).toBe('en');
  });

  it('picks Chinese for any zh tag', () => {
    expect(negotiateLanguage('zh-CN,zh;q=0.9')).toBe('zh-CN');
    expect(negotiateLanguage('zh')).toBe('zh-CN');
    expect(negotiateLanguage('ZH-cn')).toBe('zh-CN');
    expect(negotiateLanguage('zh-TW')).toBe('zh-CN');
    expect(negotiateLanguage('fr-FR, zh-CN;q=0.5')).toBe('zh-CN');
  });

  it('picks by quality, the first on a tie', () => {
    expect(negotiateLanguage('en-US,en;q=0.9,zh-CN;q=0.8')).toBe('en');
    expect(negotiateLanguage('en;q=0.5,zh-CN;q=0.8')).toBe('zh-CN');
    expect(negotiateLanguage('zh-CN;q=0.7, en-GB;q=0.7')).toBe('zh-CN');
    expect(negotiateLanguage('en, zh')).toBe('en');
  });

  it('skips languages refused with q=0 or an unreadable quality', () => {
    expect(negotiateLanguage('zh-CN;q=0, en;q=0.1')).toBe('en');
    expect(negotiateLanguage('zh-CN;q=0')).toBe('en');
    expect(negotiateLanguage('en;q=abc, zh')).toBe('zh-CN');
  });
});
