import { useTranslation } from 'react-i18next';

/** The order events the gateway records (src/store/order-events-repository.ts), each with a label. */
const ORDER_EVENT_TYPES = [
  'created',
  'checkout_created',
  'checkout_failed',
  'webhook_received',
  'webhook_replayed',
  'checked',
  'credited',
  'expired',
  'amount_mismatch',
  'session_mismatch',
  'user_gone',
] as const;

type OrderEventType = (typeof ORDER_EVENT_TYPES)[number];

function isOrderEventType(value: string): value is OrderEventType {
  return (ORDER_EVENT_TYPES as readonly string[]).includes(value);
}

/** An order event in the console's language; one this console does not know, as the gateway spells it. */
export function useOrderEventLabel(): (type: string) => string {
  const { t } = useTranslation();
  return (type) => (isOrderEventType(type) ? t(`orders.eventTypes.${type}`) : type);
}
