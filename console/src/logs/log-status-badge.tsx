import { Badge } from '@mantine/core';

function statusColor(code: number): string {
  if (code === 200) return 'green';
  if (code === 0 || code >= 500) return 'red';
  return 'orange';
}

/** A record's HTTP status: green for 200, red for 5xx and 0 (no answer), orange for the rest. */
export function LogStatusBadge({ code }: { code: number }) {
  return (
    <Badge color={statusColor(code)} variant="light">
      {code}
    </Badge>
  );
}
