import type { LimitedScope } from '../../billing/budgets/request-windows.js';
import type { TokenEstimate } from '../../billing/token-estimate.js';
import type { ClientProtocolName } from '../../protocols/protocol-codec.js';
import { requestNeeds, type RequestNeeds } from './request-needs.js';
import type { RoutingCatalog } from '../routing-catalog.js';
import type { ModelMetadataRecord } from '../../store/model-metadata-repository.js';
import type { RouteTarget } from './route-target.js';

export interface FitContext {
  catalog: Pick<RoutingCatalog, 'modelMetadata'>;
  /** The client protocol the body is read as; absent for endpoints without one. */
  protocol: ClientProtocolName | undefined;
  body: Record<string, unknown>;
  inputTokens: TokenEstimate;
  /** The output tokens the request may produce at most. */
  outputCap: number;
  limitedScopes: readonly LimitedScope[];
}

/**
 * The targets that may serve the request, where there is a choice (admin-api section 11.3): a
 * target is skipped, without a call, when its known context window is below the request's
 * estimated input plus its output cap, or its known capabilities lack what the request uses
 * (tools, image input, a JSON-schema response format). A lone target is always called: its own
 * answer says more than the gateway's refusal would. Where the key's budgets count some models
 * apart, a target is also skipped when the request would count in other windows than the first
 * target's: the reservation is made in the first's.
 */
export function fittingTargets(targets: readonly RouteTarget[], context: FitContext): readonly RouteTarget[] {
  if (targets.length < 2) return targets;
  let needs: RequestNeeds | undefined;
  let inputTokens: number | undefined;
  const fits = (metadata: ModelMetadataRecord): boolean => {
    if (metadata.contextWindow !== null) {
      inputTokens ??= context.inputTokens.count();
      const outputCap = Math.min(context.outputCap, metadata.maxOutputTokens ?? Infinity);
      if (inputTokens + outputCap > metadata.contextWindow) return false;
    }
    const { capabilities } = metadata;
    if (capabilities === null || context.protocol === undefined) return true;
    needs ??= requestNeeds(context.protocol, context.body);
    return (
      (!needs.tools || capabilities.includes('tools')) &&
      (!needs.vision || capabilities.includes('vision')) &&
      (!needs.jsonSchema || capabilities.includes('json_schema'))
    );
  };
  const fitting = targets.filter((target) => {
    const metadata = context.catalog.modelMetadata(target.model);
    return metadata === undefined || fits(metadata);
  });
  return sameWindows(fitting, context.limitedScopes);
}

/** The targets that count in the same budgets as the first (budgets with `models` tell models apart). */
function sameWindows(
  targets: readonly RouteTarget[],
  scopes: readonly LimitedScope[],
): readonly RouteTarget[] {
  const scoped = scopes.flatMap((scope) => scope.budgets.filter((budget) => budget.models !== null));
  if (scoped.length === 0 || targets.length < 2) return targets;
  const windowsOf = (model: string) => scoped.filter((budget) => budget.models!.includes(model));
  const first = windowsOf(targets[0]!.model);
  return targets.filter((target, index) => {
    if (index === 0) return true;
    const windows = windowsOf(target.model);
    return windows.length === first.length && windows.every((budget, at) => budget === first[at]);
  });
}
