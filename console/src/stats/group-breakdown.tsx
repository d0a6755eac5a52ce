import { Paper, Stack, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { ResponsiveTable, type Column } from '../components/responsive-table';
import { formatCount, formatMilliseconds, formatPercent } from '../format/format-number';
import { formatUsd } from '../format/format-usd';
import type { GroupFigures } from './summarize-stats';

const CHART_GROUPS = 8;

/** Figures per model (or channel, user, key): a bar chart of the busiest and a table of all. */
export function GroupBreakdown({
  title,
  groups,
  labelGroup,
}: {
  title: string;
  groups: readonly GroupFigures[];
  labelGroup: (group: string | number | null) => string;
}) {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  const withLatency = groups.some((group) => group.latencyMs !== null);
  const columns: Column<GroupFigures>[] = [
    { key: 'group', header: t('stats.group'), render: (row) => labelGroup(row.group) },
    {
      key: 'requests',
      header: t('stats.requests'),
      align: 'right',
      render: (row) => formatCount(row.requests, language),
    },
    {
      key: 'tokens',
      header: t('stats.tokens'),
      align: 'right',
      render: (row) => formatCount(row.promptTokens + row.completionTokens, language),
    },
    { key: 'cost', header: t('stats.cost'), align: 'right', render: (row) => formatUsd(row.cost) },
    {
      key: 'errorRate',
      header: t('stats.errorRate'),
      align: 'right',
      render: (row) => formatPercent(row.errorRate, language),
    },
    ...(withLatency
      ? [
          {
            key: 'latency',
            header: t('stats.latency'),
            align: 'right' as const,
            render: (row: GroupFigures) =>
              row.latencyMs === null ? '—' : formatMilliseconds(row.latencyMs, language),
          },
        ]
      : []),
  ];
  const chartData = groups
    .slice(0, CHART_GROUPS)
    .map((group) => ({ name: labelGroup(group.group), requests: group.requests, errors: group.errors }));
  return (
    <Paper withBorder p="md" radius="md">
      <Stack gap="sm">
        <Title order={2} size="h4">
          {title}
        </Title>
        {groups.length > 0 && (
          <div className="chart-box">
            <ResponsiveContainer>
              <BarChart data={chartData} layout="vertical" margin={{ left: 8, right: 16 }}>
                <CartesianGrid strokeDasharray="3 3" />
                <XAxis type="number" allowDecimals={false} fontSize={12} />
                <YAxis type="category" dataKey="name" width={110} fontSize={12} />
                <Tooltip />
                <Bar dataKey="requests" name={t('stats.requests')} fill="#4c6ef5" isAnimationActive={false} />
                <Bar dataKey="errors" name={t('stats.errors')} fill="#fa5252" isAnimationActive={false} />
              </BarChart>
            </ResponsiveContainer>
          </div>
        )}
        <ResponsiveTable
          label={title}
          rows={groups}
          columns={columns}
          rowKey={(row) => JSON.stringify(row.group)}
          empty={t('stats.noData')}
        />
      </Stack>
    </Paper>
  );
}
