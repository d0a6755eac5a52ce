import { Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { PageHeader } from '../components/page-header';
import { OwnBalance } from '../me/own-balance';
import { BalanceHistory } from './balance-history';
import { RedeemForm } from './redeem-form';

/** Redemption codes (admin-api section 15): a code an admin handed out becomes balance. */
export function RedeemPage() {
  const { t } = useTranslation();
  return (
    <>
      <PageHeader title={t('nav.redeem')} description={t('redeem.description')} />
      <Stack gap="md">
        <OwnBalance />
        <RedeemForm />
        <BalanceHistory />
      </Stack>
    </>
  );
}
