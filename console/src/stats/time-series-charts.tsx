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

/** One series drawn as a line; charts take their series as direct children, so this returns an element. */
function seriesLine(dataKey: string, name: string, color: string) {
  return (
    <Line
      type="monotone"
      dataKey={dataKey}
      name={name}
      stroke={color}
      dot={false}
      isAnimationActive={false}
    />
  );
}

function stackedArea(dataKey: string, name: string, color: string) {
  return (
    <Area
      type="monotone"
      dataKey={dataKey}
      stackId="tokens"
      name={name}
      stroke={color}
      fill={color}
      isAnimationActive={false}
    />
  );
}

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
            {seriesLine('requests', t('stats.requests'), COLORS.requests)}
            {seriesLine('errors', t('stats.errors'), COLORS.errors)}
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
            {stackedArea('input', t('stats.promptTokens'), COLORS.input)}
            {stackedArea('output', t('stats.completionTokens'), COLORS.output)}
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
            {seriesLine('errorRate', t('stats.errorRate'), COLORS.errors)}
          </LineChart>
        </ResponsiveContainer>
      </ChartPanel>
    </div>
  );
}
