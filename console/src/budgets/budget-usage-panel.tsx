import { Paper, Title } from '@mantine/core';
import { useEffect, useRef } from 'react';
import type { BudgetOwner } from '../api/budgets-api';
import { QueryState } from '../components/query-state';
import { BudgetUsageList } from './budget-usage-list';
import { useBudgetUsage } from './use-budget-usage';

/** The current windows of one key, user or group, opened from its row in a list. */
export function BudgetUsagePanel({ title, owner }: { title: string; owner: BudgetOwner }) {
  const usage = useBudgetUsage(owner);
  const panel = useRef<HTMLDivElement>(null);
  // Opened from a row that may be far above: brought into view. A block body, because newer
  // browsers' scrollIntoView returns a promise, which React would take for a clean-up function.
  useEffect(() => {
    panel.current?.scrollIntoView({ block: 'nearest' });
  }, [title]);
  return (
    <Paper withBorder p="md" radius="md" ref={panel} component="section" aria-label={title}>
      <Title order={2} size="h4" mb="sm">
        {title}
      </Title>
      <QueryState query={usage}>{(windows) => <BudgetUsageList windows={windows} />}</QueryState>
    </Paper>
  );
}
