import { GatewayError } from '../errors/gateway-error.js';

export const reasoningEfforts = ['none', 'minimal', 'low', 'medium', 'high', 'xhigh'] as const;
export type ReasoningEffort = (typeof reasoningEfforts)[number];

export interface ModelReference {
  /** The public model id, modifier stripped: what routing and pricing see. */
  model: string;
  effort: ReasoningEffort | undefined;
}

/**
 * Splits `<model>@<effort>` or `<model>@effort=<effort>` (admin-api section 4). Any other modifier
 * name or effort value is refused with `convert_request_failed`.
 */
export function parseModelReference(requested: string): ModelReference {
  const at = requested.indexOf('@');
  if (at < 0) return { model: requested, effort: undefined };
  const model = requested.slice(0, at);
  const modifier = requested.slice(at + 1);
  const equals = modifier.indexOf('=');
  const name = equals < 0 ? 'effort' : modifier.slice(0, equals);
  const value = equals < 0 ? modifier : modifier.slice(equals + 1);
  if (name !== 'effort') throw new GatewayError('unsupported_model_modifier', { name });
  if (!isReasoningEffort(value)) throw new GatewayError('invalid_effort_modifier', { value });
  return { model, effort: value };
}

function isReasoningEffort(value: string): value is ReasoningEffort {
  return (reasoningEfforts as readonly string[]).includes(value);
}
