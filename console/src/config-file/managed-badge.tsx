import { Badge } from '@mantine/core';
import type { Managed } from '../api/types';
import { useManagedByConfig } from './use-managed-by-config';

/** "Managed by <file>" beside an entity the configuration file declares; nothing for the others. */
export function ManagedBadge({ managed }: { managed: Managed }) {
  const { label } = useManagedByConfig();
  if (managed !== 'config') return null;
  return (
    <Badge color="violet" variant="light" tt="none" size="sm" maw="100%" title={label}>
      {label}
    </Badge>
  );
}
