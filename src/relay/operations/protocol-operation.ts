import { estimatePromptTokens } from '../../billing/estimate-prompt-tokens.js';
import { findProvider } from '../../providers/registry.js';
import type { ClientProtocolName } from '../../protocols/protocol-codec.js';
import { protocols } from '../../protocols/registry.js';
import { createPlanner } from '../plan.js';
import { modelPrice, type RelayOperation } from '../relay-operation.js';

/**
 * The conversational operations (chat completions, responses, messages, generateContent): any
 * channel type the gateway has a provider for can take them, through passthrough or conversion.
 */
export function protocolOperation(protocol: ClientProtocolName): RelayOperation {
  const { passthrough } = protocols[protocol];
  return {
    select: (candidates) => candidates.filter((channel) => findProvider(channel.type) !== undefined),
    isStream: (body) => passthrough.isStream(body),
    billingPrice: modelPrice,
    preCharge: (body, settings) => ({
      inputTokens: estimatePromptTokens(body),
      outputCap:
        (passthrough.outputCap(body) ?? settings.default_max_tokens) * (passthrough.choiceCount?.(body) ?? 1),
      calls: 1,
    }),
    forwardedHeaders: passthrough.forwardedHeaders,
    wantsUsageEvents: (body) => passthrough.wantsUsageEvents(body),
    createPlanner: (input) => createPlanner(protocol, input),
  };
}
