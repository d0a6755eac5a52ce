import { Paper, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { queryKeys } from '../api/query-keys';
import { QueryState } from '../components/query-state';
import { ResponsiveTable, type Column } from '../components/responsive-table';
import { formatDateTime } from '../format/format-time';
import { formatUsd } from '../format/format-usd';
import type { BalanceCredit } from './balance-credit';
import { listOwnCredits } from './redeem-api';
import { useCreditKindLabel } from './use-credit-kind-label';

/** Every rise of the caller's balance and where it came from: codes, card top-ups, an admin, sign-up. */
export function BalanceHistory() {
  const { t } = useTranslation();
  const kindLabel = useCreditKindLabel();
  const credits = useQuery({ queryKey: queryKeys.ownCredits, queryFn: listOwnCredits });
  const columns: Column<BalanceCredit>[] = [
    { key: 'time', header: t('credits.time'), render: (credit) => formatDateTime(credit.created_at) },
    { key: 'kind', header: t('credits.kind'), render: (credit) => kindLabel(credit.kind) },
    {
      key: 'amount',
      header: t('credits.amount'),
      align: 'right',
      render: (credit) => `+${formatUsd(credit.amount)}`,
    },
    {
      key: 'reference',
      header: t('credits.reference'),
      render: (credit) => (
        <Text size="sm" c={credit.reference === null ? 'dimmed' : undefined} ff="monospace">
          {credit.reference ?? '—'}
        </Text>
      ),
    },
  ];
  return (
    <Paper withBorder p="md" radius="md" component="section" aria-labelledby="balance-history-title">
      <Title order={2} size="h4" mb="sm" id="balance-history-title">
        {t('credits.title')}
      </Title>
      <QueryState query={credits}>
        {(rows) => (
          <ResponsiveTable
            label={t('credits.title')}
            rows={rows}
            columns={columns}
            rowKey={(credit) => credit.id}
            empty={t('credits.empty')}
          />
        )}
      </QueryState>
    </Paper>
  );
}
