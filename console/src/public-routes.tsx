import { Center, Loader } from '@mantine/core';
import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { Route, Routes } from 'react-router';
import { SignInPage } from './auth/sign-in-page';
import { RegisterPage } from './registration/register-page';

// Only for those who open it: the sign-in page stays the smallest part of the console.
const PublicPricingPage = lazy(() =>
  import('./pricing/public-pricing-page').then((module) => ({ default: module.PublicPricingPage })),
);

/** The pages of a browser nobody is signed in on: registration, prices, and sign-in for every other path. */
export function PublicRoutes() {
  const { t } = useTranslation();
  return (
    <Routes>
      <Route path="/register" element={<RegisterPage />} />
      <Route
        path="/pricing"
        element={
          <Suspense
            fallback={
              <Center h="50dvh">
                <Loader aria-label={t('app.loading')} />
              </Center>
            }
          >
            <PublicPricingPage />
          </Suspense>
        }
      />
      <Route path="*" element={<SignInPage />} />
    </Routes>
  );
}
