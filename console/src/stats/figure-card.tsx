import { Paper, Text } from '@mantine/core';

/** One figure with its name above it. */
export function FigureCard({ label, value }: { label: string; value: string }) {
  return (
    <Paper withBorder p="md" radius="md">
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      <Text size="xl" fw={700} className="break-anywhere">
        {value}
      </Text>
    </Paper>
  );
}
