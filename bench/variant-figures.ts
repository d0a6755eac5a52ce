import { round } from './report.js';

/** A variant of the plain chat request (spend limits on the key, a virtual model) against the plain one, in one run. */
export function variantFigures(
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
