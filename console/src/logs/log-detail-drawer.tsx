import { Drawer, Stack } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { fetchLogDetail, type LogScope } from '../api/logs-api';
import { queryKeys } from '../api/query-keys';
import type { UsageLog } from '../api/types';
import { QueryState } from '../components/query-state';
import { LogBodies } from './log-bodies';
import { LogDetailFields } from './log-detail-fields';
import type { LogNames } from './log-names';

function LogDetail({ scope, id, names }: { scope: LogScope; id: number; names: LogNames }) {
  const detail = useQuery({
    queryKey: queryKeys.logDetail(scope, id),
    queryFn: () => fetchLogDetail({ scope, id }),
  });
  return (
    <QueryState query={detail}>
      {(record) => (
        <Stack gap="md">
          <LogDetailFields log={record} {...names} />
          <LogBodies detail={record} />
        </Stack>
      )}
    </QueryState>
  );
}

/** The record chosen in the table, fetched with its bodies from `/api/logs/{id}` or `/api/me/logs/{id}`. */
export function LogDetailDrawer({
  scope,
  log,
  names,
  onClose,
}: {
  scope: LogScope;
  log: UsageLog | null;
  names: LogNames;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Drawer
      opened={log !== null}
      onClose={onClose}
      position="right"
      size="xl"
      title={log === null ? '' : t('logs.detailTitle', { id: log.request_id })}
    >
      {log !== null && <LogDetail scope={scope} id={log.id} names={names} />}
    </Drawer>
  );
}
