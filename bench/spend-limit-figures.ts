import { round } from './report.js';

/** What one budget and a concurrency cap on the key add to a request, as the bench reports it. */
export function spendLimitFigures(
  without: { rps: number; cpuPerRequest: number },
  withLimits: { rps: number; cpuPerRequest: number; errors: number },
) {
  return {
    rps: round(withLimits.rps, 0),
    cpu_us_per_request: round(withLimits.cpuPerRequest, 1),
    vs_without: {
      rps: round(withLimits.rps / without.rps, 3),
      cpu: round(withLimits.cpuPerRequest / without.cpuPerRequest, 3),
    },
    errors: withLimits.errors,
  };
}
