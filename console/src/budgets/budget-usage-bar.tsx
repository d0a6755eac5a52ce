import { Progress, Stack, Text } from '@mantine/core';
import type { BudgetUsageBar as Bar } from './budget-usage-bars';

/** Past this share a window is close to its limit. */
const WARNING_SHARE = 0.8;

function barColor(share: number): string {
  if (share >= 1) return 'red';
  if (share >= WARNING_SHARE) return 'orange';
  return 'teal';
}

/** One limit of a window: its sentence above a bar of the share used. */
export function BudgetUsageBar({ bar }: { bar: Bar }) {
  const percent = Math.round(Math.min(1, Math.max(0, bar.share)) * 1000) / 10;
  return (
    <Stack gap={4}>
      <Text size="sm" className="break-anywhere">
        {bar.label}
      </Text>
      <Progress value={percent} color={barColor(bar.share)} size="md" radius="sm" aria-label={bar.label} />
    </Stack>
  );
}
