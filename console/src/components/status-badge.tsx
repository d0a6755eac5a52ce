import { Badge } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { ChannelStatus, KeyStatus, ModelHealthState, WebhookDeliveryStatus } from '../api/types';

type Status =
  | ChannelStatus
  | KeyStatus
  | ModelHealthState
  | WebhookDeliveryStatus
  | 'active'
  | 'refused'
  // Redemption and invite codes (admin-api section 15).
  | 'unused'
  | 'used';

const COLORS: Record<Status, string> = {
  enabled: 'green',
  healthy: 'green',
  disabled: 'gray',
  auto_disabled: 'red',
  expired: 'orange',
  exhausted: 'orange',
  cooling_down: 'orange',
  probing: 'yellow',
  active: 'green',
  refused: 'red',
  pending: 'yellow',
  delivered: 'green',
  failed: 'red',
  unused: 'blue',
  used: 'gray',
};

export function StatusBadge({ status }: { status: string }) {
  const { t } = useTranslation();
  const known = status in COLORS ? (status as Status) : undefined;
  return (
    <Badge color={known ? COLORS[known] : 'gray'} variant="light" tt="none">
      {known ? t(`status.${known}`) : status}
    </Badge>
  );
}
