import { useQuery } from '@tanstack/react-query';
import { fetchBudgetUsage, type BudgetOwner } from '../api/budgets-api';
import { queryKeys } from '../api/query-keys';

/** Windows fill while requests run: read again every half minute while shown. */
const REFRESH_MS = 30_000;

export function useBudgetUsage(owner: BudgetOwner) {
  return useQuery({
    queryKey: queryKeys.budgetUsage(owner),
    queryFn: () => fetchBudgetUsage(owner),
    refetchInterval: REFRESH_MS,
  });
}
