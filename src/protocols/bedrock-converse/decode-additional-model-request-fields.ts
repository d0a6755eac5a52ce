import type { ReasoningEffort, ReasoningOptions } from '../../ir/request.js';
import { InvalidRequestError } from '../invalid-request-error.js';
import { asCount, asFiniteNumber, asJsonObject, withoutKeys, type JsonObject } from '../wire-json.js';

/** Efforts Nova 2 names in `reasoningConfig.maxReasoningEffort`. */
const NOVA_EFFORTS: readonly string[] = ['low', 'medium', 'high'] satisfies ReasoningEffort[];

export interface DecodedModelFields {
  topK?: number;
  reasoning?: ReasoningOptions;
  /** A Claude `thinking` object the reasoning options cannot say whole. */
  thinking?: JsonObject;
  /** What stays for a same-protocol encode. */
  rest?: JsonObject;
}

/**
 * `additionalModelRequestFields`: the model's own request members, which Converse passes on
 * (https://docs.aws.amazon.com/bedrock/latest/userguide/conversation-inference-call.html). The
 * members with a canonical meaning are read whatever the model: Claude's `top_k` and `thinking`
 * (https://docs.aws.amazon.com/bedrock/latest/userguide/model-parameters-anthropic-claude-messages-request-response.html),
 * Nova's `inferenceConfig.topK` and Nova 2's `reasoningConfig`
 * (https://docs.aws.amazon.com/nova/latest/nova2-userguide/extended-thinking.html).
 */
export function decodeAdditionalModelRequestFields(value: unknown): DecodedModelFields {
  if (value === undefined || value === null) return {};
  const fields = asJsonObject(value);
  if (!fields) throw new InvalidRequestError('additionalModelRequestFields', 'must be an object');
  const decoded: DecodedModelFields = {};
  let rest: JsonObject = { ...fields };

  const topK = asFiniteNumber(fields.top_k);
  if (topK !== undefined) {
    decoded.topK = topK;
    rest = withoutKeys(rest, ['top_k']) ?? {};
  }
  const inferenceConfig = asJsonObject(fields.inferenceConfig);
  const novaTopK = asFiniteNumber(inferenceConfig?.topK);
  if (inferenceConfig && novaTopK !== undefined) {
    decoded.topK ??= novaTopK;
    const others = withoutKeys(inferenceConfig, ['topK']);
    rest = { ...withoutKeys(rest, ['inferenceConfig']), ...(others ? { inferenceConfig: others } : {}) };
  }
  if (fields.thinking !== undefined) {
    const thinking = decodeThinking(fields.thinking);
    decoded.reasoning = thinking.reasoning;
    if (thinking.stored) decoded.thinking = thinking.stored;
    rest = withoutKeys(rest, ['thinking']) ?? {};
  }
  const novaReasoning = decodeNovaReasoningConfig(fields.reasoningConfig);
  if (novaReasoning) {
    decoded.reasoning = { ...decoded.reasoning, ...novaReasoning };
    rest = withoutKeys(rest, ['reasoningConfig']) ?? {};
  }
  if (Object.keys(rest).length > 0) decoded.rest = rest;
  return decoded;
}

/**
 * Claude's `thinking` (https://docs.aws.amazon.com/bedrock/latest/userguide/claude-messages-extended-thinking.html):
 * enabled with a budget, disabled, or a kind the options cannot say (adaptive), kept whole.
 */
function decodeThinking(value: unknown): { reasoning: ReasoningOptions; stored?: JsonObject } {
  const thinking = asJsonObject(value);
  if (!thinking) throw new InvalidRequestError('additionalModelRequestFields.thinking', 'must be an object');
  switch (thinking.type) {
    case 'enabled': {
      const budget = asCount(thinking.budget_tokens);
      if (budget === undefined)
        throw new InvalidRequestError(
          'additionalModelRequestFields.thinking.budget_tokens',
          'must be a number',
        );
      const extra = withoutKeys(thinking, ['type', 'budget_tokens']);
      return { reasoning: { enabled: true, budgetTokens: budget }, ...(extra ? { stored: thinking } : {}) };
    }
    case 'disabled':
      return {
        reasoning: { enabled: false },
        ...(withoutKeys(thinking, ['type']) ? { stored: thinking } : {}),
      };
    default:
      return { reasoning: { enabled: true }, stored: thinking };
  }
}

/** Nova 2's `reasoningConfig: { type, maxReasoningEffort }`, when it says no more than that. */
function decodeNovaReasoningConfig(value: unknown): ReasoningOptions | undefined {
  const config = asJsonObject(value);
  if (!config || withoutKeys(config, ['type', 'maxReasoningEffort'])) return undefined;
  const effort = config.maxReasoningEffort;
  if (config.type === 'disabled' && effort === undefined) return { enabled: false };
  if (config.type !== 'enabled' || typeof effort !== 'string' || !NOVA_EFFORTS.includes(effort))
    return undefined;
  return { enabled: true, effort: effort as ReasoningEffort };
}
