import { Paper, Stack, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { PageHeader } from '../components/page-header';
import { QueryState } from '../components/query-state';
import { OwnBalance } from '../me/own-balance';
import { usePublicOptions } from '../public/use-public-options';
import { CardTopUpForm } from './card-top-up-form';
import { CheckoutReturnNotice } from './checkout-return-notice';
import { OwnOrdersTable } from './own-orders-table';
import { readCheckoutReturn } from './read-checkout-return';
import { useOwnOrders } from './use-own-orders';

/** The gateway's `topup_min_usd` default (admin-api section 15), for a gateway that does not tell. */
const DEFAULT_MINIMUM_USD = 1;

/**
 * Card top-up through Stripe (admin-api section 15): an amount, Stripe's payment page, then back
 * here, where the orders reload until the payment is confirmed.
 */
export function TopUpPage() {
  const { t } = useTranslation();
  const { search } = useLocation();
  const checkout = readCheckoutReturn(search);
  const orders = useOwnOrders(checkout.orderId);
  const minimum = usePublicOptions().data?.topup_min_usd ?? DEFAULT_MINIMUM_USD;
  return (
    <>
      <PageHeader title={t('nav.topUp')} description={t('topUp.description')} />
      <Stack gap="md">
        <CheckoutReturnNotice checkout={checkout} orders={orders.data} />
        <OwnBalance />
        <CardTopUpForm minimum={minimum} />
        <Paper withBorder p="md" radius="md" component="section" aria-labelledby="own-orders-title">
          <Title order={2} size="h4" mb="sm" id="own-orders-title">
            {t('orders.ownTitle')}
          </Title>
          <QueryState query={orders}>{(rows) => <OwnOrdersTable orders={rows} />}</QueryState>
        </Paper>
      </Stack>
    </>
  );
}
