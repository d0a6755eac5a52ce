import type { StatsBucket } from '../api/types';

export type StatsRange = '24h' | '30d';

export interface StatsWindow {
  from: number;
  to: number;
  bucket: StatsBucket;
  /** Seconds per bucket. */
  step: number;
}

const HOUR = 3600;
const DAY = 86_400;

/** The last 24 hourly buckets or the last 30 daily ones (UTC-aligned), up to now. */
export function statsWindow(range: StatsRange, nowSeconds: number): StatsWindow {
  const step = range === '24h' ? HOUR : DAY;
  const buckets = range === '24h' ? 24 : 30;
  const current = Math.floor(nowSeconds / step) * step;
  return {
    from: current - (buckets - 1) * step,
    to: nowSeconds,
    bucket: range === '24h' ? 'hour' : 'day',
    step,
  };
}
