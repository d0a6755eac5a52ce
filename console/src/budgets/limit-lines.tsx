import { Stack, Text } from '@mantine/core';

/** A table cell of short lines (limits of a key, user or group), a dash when there are none. */
export function LimitLines({ lines }: { lines: readonly string[] }) {
  if (lines.length === 0) return '—';
  return (
    <Stack gap={0}>
      {lines.map((line) => (
        <Text key={line} size="xs" className="break-anywhere">
          {line}
        </Text>
      ))}
    </Stack>
  );
}
