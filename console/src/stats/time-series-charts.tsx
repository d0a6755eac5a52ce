import { useTranslation } from 'react-i18next';
import {
  Area,
  AreaChart,
  Bar,
  BarChart,
  CartesianGrid,
  Legend,
  Line,
  LineChart,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import type { StatsBucket } from '../api/types';
import { formatBucket } from '../format/format-time';
import { formatUsd } from '../format/format-usd';
import { ChartPanel } from './chart-panel';
import type { TimePoint } from './summarize-stats';

const LEGEND_STYLE = { fontSize: 12 };
const COLORS = {
  requests: '#4c6ef5',
  errors: '#fa5252',
  input: '#15aabf',
  output: '#7950f2',
  cost: '#40c057',
};

/** Requests and errors, tokens, cost and error rate per bucket; no animation, so pages settle at once. */
export function TimeSeriesCharts({ points, bucket }: { points: readonly TimePoint[]; bucket: StatsBucket }) {
  const { t } = useTranslation();
  const data = points.map((point) => ({
    label: formatBucket(point.t, bucket),
    requests: point.requests,
    errors: point.errors,
    input: point.promptTokens,
    output: point.completionTokens,
    cost: point.cost,
    errorRate: Math.round(point.errorRate * 1000) / 10,
  }));
  const axis = <XAxis dataKey="label" minTickGap={16} fontSize={12} />;
  return (
    <div className="chart-grid">
      <ChartPanel title={t('stats.requests')}>
        <ResponsiveContainer>
          <LineChart data={data}>
            <CartesianGrid strokeDasharray="3 3" />
            {axis}
            <YAxis allowDecimals={false} width={40} fontSize={12} />
            <Tooltip />
            <Legend wrapperStyle={LEGEND_STYLE} />
            <Line
              type="monotone"
              dataKey="requests"
              name={t('stats.requests')}
              stroke={COLORS.requests}
              dot={false}
              isAnimationActive={false}
            />
            <Line
              type="monotone"
              dataKey="errors"
              name={t('stats.errors')}
              stroke={COLORS.errors}
              dot={false}
              isAnimationActive={false}
            />
          </LineChart>
        </ResponsiveContainer>
      </ChartPanel>
      <ChartPanel title={t('stats.tokens')}>
        <ResponsiveContainer>
          <AreaChart data={data}>
            <CartesianGrid strokeDasharray="3 3" />
            {axis}
            <YAxis width={56} fontSize={12} />
            <Tooltip />
            <Legend wrapperStyle={LEGEND_STYLE} />
            <Area
              type="monotone"
              dataKey="input"
              stackId="tokens"
              name={t('stats.promptTokens')}
              stroke={COLORS.input}
              fill={COLORS.input}
              isAnimationActive={false}
            />
            <Area
              type="monotone"
              dataKey="output"
              stackId="tokens"
              name={t('stats.completionTokens')}
              stroke={COLORS.output}
              fill={COLORS.output}
              isAnimationActive={false}
            />
          </AreaChart>
        </ResponsiveContainer>
      </ChartPanel>
      <ChartPanel title={t('stats.cost')}>
        <ResponsiveContainer>
          <BarChart data={data}>
            <CartesianGrid strokeDasharray="3 3" />
            {axis}
            <YAxis width={64} fontSize={12} tickFormatter={(value: number) => `$${value}`} />
            <Tooltip formatter={(value) => formatUsd(Number(value))} />
            <Bar dataKey="cost" name={t('stats.cost')} fill={COLORS.cost} isAnimationActive={false} />
          </BarChart>
        </ResponsiveContainer>
      </ChartPanel>
      <ChartPanel title={t('stats.errorRate')}>
        <ResponsiveContainer>
          <LineChart data={data}>
            <CartesianGrid strokeDasharray="3 3" />
            {axis}
            <YAxis width={40} fontSize={12} unit="%" domain={[0, 100]} />
            <Tooltip formatter={(value) => `${String(value)}%`} />
            <Line
              type="monotone"
              dataKey="errorRate"
              name={t('stats.errorRate')}
              stroke={COLORS.errors}
              dot={false}
              isAnimationActive={false}
            />
          </LineChart>
        </ResponsiveContainer>
      </ChartPanel>
    </div>
  );
}
