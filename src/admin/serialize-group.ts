import type { GroupRecord } from '../store/groups-repository.js';
import { serializeBudget } from './serialize-budget.js';

/** A group as the management API shows it (admin-api sections 2 and 10). */
export function serializeGroup(group: GroupRecord) {
  return {
    name: group.name,
    ratio: group.ratio,
    budgets: group.budgets.map(serializeBudget),
    max_concurrency: group.maxConcurrency,
    log_bodies: group.logBodies,
  };
}
