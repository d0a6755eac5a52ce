import { Badge } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { ORDER_STATUSES, type OrderStatus } from './order';

const COLORS: Record<OrderStatus, string> = { pending: 'yellow', paid: 'green', expired: 'gray' };

function isOrderStatus(value: string): value is OrderStatus {
  return (ORDER_STATUSES as readonly string[]).includes(value);
}

/** Where an order's payment stands; a status this console does not know, as the gateway spells it. */
export function OrderStatusBadge({ status }: { status: string }) {
  const { t } = useTranslation();
  const known = isOrderStatus(status) ? status : undefined;
  return (
    <Badge color={known ? COLORS[known] : 'gray'} variant="light" tt="none">
      {known ? t(`orders.statuses.${known}`) : status}
    </Badge>
  );
}
