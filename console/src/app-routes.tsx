import { Center, Loader } from '@mantine/core';
import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { useCurrentUser } from './auth/use-current-user';
import { ErrorAlert } from './components/error-alert';
import { useAccountLanguage } from './i18n/use-account-language';
import { AppLayout } from './layout/app-layout';
import { PublicRoutes } from './public-routes';

// Loaded after sign-in, so the sign-in page needs only the smallest part of the console.
const AdminRoutes = lazy(() => import('./admin-routes').then((module) => ({ default: module.AdminRoutes })));
const UserRoutes = lazy(() => import('./user-routes').then((module) => ({ default: module.UserRoutes })));

/** Sign-in (and the pages anyone may see) while nobody is signed in; then the admin's or the user's pages. */
export function AppRoutes() {
  const { t } = useTranslation();
  const currentUser = useCurrentUser();
  useAccountLanguage(currentUser.data);
  const loading = (
    <Center h="50dvh">
      <Loader aria-label={t('app.loading')} />
    </Center>
  );
  if (currentUser.isPending) return loading;
  if (currentUser.isError) {
    return (
      <Center p="xl">
        <ErrorAlert error={currentUser.error} onRetry={() => void currentUser.refetch()} />
      </Center>
    );
  }
  const user = currentUser.data;
  if (!user) return <PublicRoutes />;
  return (
    <AppLayout user={user}>
      <Suspense fallback={loading}>{user.role === 'admin' ? <AdminRoutes /> : <UserRoutes />}</Suspense>
    </AppLayout>
  );
}
