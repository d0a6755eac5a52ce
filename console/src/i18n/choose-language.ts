import type { Language } from '../api/types';
import { isSupportedLanguage } from './supported-languages';

/** Where the root admin's choice is kept: it has no account to save it in. */
export const LANGUAGE_STORAGE_KEY = 'gateway-console-language';

/** `zh`, `zh-CN`, `zh-Hans-CN`... -> `zh-CN`; `en-*` -> `en`; others: none. */
export function matchLanguage(tag: string): Language | undefined {
  const lower = tag.toLowerCase();
  if (lower === 'zh' || lower.startsWith('zh-')) return 'zh-CN';
  if (lower === 'en' || lower.startsWith('en-')) return 'en';
  return undefined;
}

/**
 * The interface language: the account's saved one, then a choice kept in this browser, then the
 * browser's preferred languages in order, then English.
 */
export function chooseLanguage(options: {
  account: Language | null | undefined;
  stored: string | null | undefined;
  browser: readonly string[];
}): Language {
  if (isSupportedLanguage(options.account)) return options.account;
  if (isSupportedLanguage(options.stored)) return options.stored;
  for (const tag of options.browser) {
    const language = matchLanguage(tag);
    if (language) return language;
  }
  return 'en';
}
