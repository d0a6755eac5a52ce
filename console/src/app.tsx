import { MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { QueryClientProvider } from '@tanstack/react-query';
import { useState } from 'react';
import { I18nextProvider } from 'react-i18next';
import { BrowserRouter } from 'react-router';
import { AppRoutes } from './app-routes';
import { chooseLanguage, LANGUAGE_STORAGE_KEY } from './i18n/choose-language';
import { createI18n } from './i18n/i18n';
import { createQueryClient } from './create-query-client';
import { theme } from './theme';

/** The console: providers around the routes. */
export function App() {
  const [queryClient] = useState(createQueryClient);
  const [i18n] = useState(() =>
    createI18n(
      chooseLanguage({
        account: null,
        stored: window.localStorage.getItem(LANGUAGE_STORAGE_KEY),
        browser: navigator.languages,
      }),
    ),
  );
  return (
    <MantineProvider theme={theme} defaultColorScheme="light">
      <Notifications position="bottom-right" autoClose={4000} />
      <I18nextProvider i18n={i18n}>
        <QueryClientProvider client={queryClient}>
          <BrowserRouter>
            <AppRoutes />
          </BrowserRouter>
        </QueryClientProvider>
      </I18nextProvider>
    </MantineProvider>
  );
}
