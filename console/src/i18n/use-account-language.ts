import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import type { SignedInUser } from '../api/types';
import { chooseLanguage, LANGUAGE_STORAGE_KEY } from './choose-language';

/** Follows the signed-in account's saved language, and keeps `<html lang>` in step. */
export function useAccountLanguage(user: SignedInUser | null | undefined): void {
  const { i18n } = useTranslation();
  const account = user?.language ?? null;
  useEffect(() => {
    const language = chooseLanguage({
      account,
      stored: window.localStorage.getItem(LANGUAGE_STORAGE_KEY),
      browser: navigator.languages,
    });
    if (i18n.language !== language) void i18n.changeLanguage(language);
  }, [account, i18n]);
  useEffect(() => {
    const sync = (language: string) => document.documentElement.setAttribute('lang', language);
    sync(i18n.language);
    i18n.on('languageChanged', sync);
    return () => i18n.off('languageChanged', sync);
  }, [i18n]);
}
