import { Paper, Title } from '@mantine/core';
import type { ReactNode } from 'react';

/** A titled box of fixed height for one chart. */
export function ChartPanel({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Paper withBorder p="md" radius="md">
      <Title order={2} size="h5" mb="xs">
        {title}
      </Title>
      <div className="chart-box">{children}</div>
    </Paper>
  );
}
