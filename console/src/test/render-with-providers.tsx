import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter } from 'react-router';
import type { Language } from '../api/types';
import { createI18n } from '../i18n/i18n';
import { theme } from '../theme';

/**
 * Renders a component inside the console's providers, in English unless asked otherwise, at
 * `route` (default `/`) of an in-memory router.
 */
export function renderWithProviders(
  element: ReactElement,
  options: { language?: Language; route?: string } = {},
) {
  const i18n = createI18n(options.language ?? 'en');
  const queryClient = new QueryClient({
    defaultOptions: { queries: { retry: false }, mutations: { retry: false } },
  });
  const result = render(
    <MantineProvider theme={theme}>
      <I18nextProvider i18n={i18n}>
        <QueryClientProvider client={queryClient}>
          <MemoryRouter initialEntries={[options.route ?? '/']}>{element}</MemoryRouter>
        </QueryClientProvider>
      </I18nextProvider>
    </MantineProvider>,
  );
  return { ...result, i18n, queryClient };
}
