import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { queryKeys } from '../api/query-keys';
import { listOwnOrders } from './orders-api';
import { ordersRefetchInterval } from './orders-refetch-interval';

/**
 * The caller's orders, reloaded every few seconds while a payment may still arrive; when an order
 * turns paid, the balance and its history reload too.
 */
export function useOwnOrders(watchedOrderId: string | undefined) {
  const queryClient = useQueryClient();
  const orders = useQuery({
    queryKey: queryKeys.ownOrders,
    queryFn: listOwnOrders,
    refetchInterval: (query) =>
      ordersRefetchInterval({
        orders: query.state.data ?? [],
        now: Date.now() / 1000,
        watchedOrderId,
      }),
  });
  const paidIds = useRef<Set<string> | undefined>(undefined);
  useEffect(() => {
    if (!orders.data) return;
    const paid = new Set(orders.data.filter((order) => order.status === 'paid').map((order) => order.id));
    const before = paidIds.current;
    paidIds.current = paid;
    if (before && [...paid].some((id) => !before.has(id))) {
      void queryClient.invalidateQueries({ queryKey: queryKeys.ownAccount, exact: true });
      void queryClient.invalidateQueries({ queryKey: queryKeys.ownCredits });
    }
  }, [orders.data, queryClient]);
  return orders;
}
