import { Button, Stack } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { queryKeys } from '../api/query-keys';
import { OffsetPager } from '../components/offset-pager';
import { PageHeader } from '../components/page-header';
import { QueryState } from '../components/query-state';
import type { Order } from '../topup/order';
import { listOrders } from '../topup/orders-api';
import { useUsers } from '../users/use-users';
import { OrderEventsModal } from './order-events-modal';
import { OrdersTable } from './orders-table';

const PAGE_SIZE = 100;

/** Card top-ups of every user (admin-api section 15), with what happened to each: webhooks, checks, credits. */
export function AdminOrdersPage() {
  const { t } = useTranslation();
  const [offset, setOffset] = useState(0);
  const orders = useQuery({
    queryKey: [...queryKeys.orders, offset],
    queryFn: () => listOrders({ limit: PAGE_SIZE, offset }),
    placeholderData: keepPreviousData,
  });
  // Only to name the users: the orders show their ids without it.
  const users = useUsers();
  const [eventsOf, setEventsOf] = useState<Order | undefined>(undefined);
  return (
    <>
      <PageHeader
        title={t('nav.orders')}
        description={t('orders.description')}
        actions={
          <Button variant="default" loading={orders.isFetching} onClick={() => void orders.refetch()}>
            {t('common.refresh')}
          </Button>
        }
      />
      <QueryState query={orders}>
        {(rows) => (
          <Stack gap="sm">
            <OrdersTable orders={rows} users={users.data} onShowEvents={setEventsOf} />
            <OffsetPager offset={offset} limit={PAGE_SIZE} shown={rows.length} onChange={setOffset} />
          </Stack>
        )}
      </QueryState>
      <OrderEventsModal order={eventsOf} onClose={() => setEventsOf(undefined)} />
    </>
  );
}
