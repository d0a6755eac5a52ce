import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import type { Language } from '../api/types';
import { en } from './en';
import { zhCN } from './zh-cn';

declare module 'i18next' {
  interface CustomTypeOptions {
    resources: { translation: typeof en };
    returnNull: false;
  }
}

/** A fresh i18next instance with both languages; the app and the tests each make their own. */
export function createI18n(language: Language) {
  const instance = i18next.createInstance();
  void instance.use(initReactI18next).init({
    lng: language,
    fallbackLng: 'en',
    resources: { en: { translation: en }, 'zh-CN': { translation: zhCN } },
    interpolation: { escapeValue: false },
    initAsync: false,
    returnNull: false,
  });
  return instance;
}
