import type { GatewayServices } from '../services.js';
import { notFound } from './admin-error.js';
import { parseIdParam } from './parse-id-param.js';
import { serializeUsageLog } from './serialize-usage-log.js';

/**
 * One usage record with its stored bodies (admin-api section 12): `request_body` and
 * `response_body` are null when the request's key did not store them, or when they were deleted
 * after `body_retention_days`. With `ownerId`, another user's record is a 404, as one that does not
 * exist.
 */
export async function usageLogDetail(
  services: GatewayServices,
  params: unknown,
  ownerId: number | undefined,
) {
  const id = parseIdParam(params, 'log');
  const { usageLogs, usageLogBodies } = services.repositories;
  const log = await usageLogs.find(id);
  if (!log || (ownerId !== undefined && log.userId !== ownerId)) throw notFound('log', id);
  const bodies = await usageLogBodies.find(log.requestId);
  return {
    ...serializeUsageLog(log),
    request_body: bodies?.requestBody ?? null,
    response_body: bodies?.responseBody ?? null,
    body_truncated: bodies?.truncated ?? false,
  };
}
