import type { Language } from '../api/types';

export const SUPPORTED_LANGUAGES: readonly Language[] = ['en', 'zh-CN'];

export function isSupportedLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (SUPPORTED_LANGUAGES as readonly string[]).includes(value);
}
