import type { LossLog } from '../../ir/loss.js';
import type { CanonicalRequest, ReasoningEffort } from '../../ir/request.js';
import { encodeReasoning, isThinkingOn } from '../anthropic-messages/encode-reasoning.js';
import { asJsonObject, type JsonObject } from '../wire-json.js';
import { storedEffort, type ConverseRequestExtensions } from './bedrock-converse-extensions.js';
import type { BedrockModelFamily } from './bedrock-model-family.js';
import type { ConverseMessage, ConverseToolChoice } from './wire-types.js';

export interface EncodedModelFields {
  /** `additionalModelRequestFields`, when anything goes there. */
  fields?: JsonObject;
  /** `outputConfig.effort` to send. */
  effort?: string;
  /** Claude thinks: some sampling settings are refused. */
  thinkingOn: boolean;
  /** The output cap the thinking budget was fitted under, to send when the request has none. */
  maxTokens?: number;
}

/** Nova 2's efforts (https://docs.aws.amazon.com/nova/latest/nova2-userguide/extended-thinking.html). */
const NOVA_EFFORT: Record<Exclude<ReasoningEffort, 'none'>, 'low' | 'medium' | 'high'> = {
  minimal: 'low',
  low: 'low',
  medium: 'medium',
  high: 'high',
  xhigh: 'high',
};

/**
 * Top-k and reasoning, which Converse has no member for, in the form the model's family takes in
 * `additionalModelRequestFields` (https://docs.aws.amazon.com/bedrock/latest/userguide/model-parameters.html):
 * Claude's `top_k` and `thinking` (built as the Anthropic protocol builds it, or the request's own
 * `outputConfig.effort`), Nova's `inferenceConfig.topK` and Nova 2's `reasoningConfig`. Other
 * families take neither, so both are dropped there with a loss, unless the request spoke
 * `outputConfig.effort` itself. Members the request kept for this protocol go back as they were.
 */
export function encodeModelFields(options: {
  request: CanonicalRequest;
  family: BedrockModelFamily;
  extensions: ConverseRequestExtensions;
  messages: ConverseMessage[];
  toolChoice: ConverseToolChoice | undefined;
  defaultMaxTokens: number;
  losses: LossLog;
}): EncodedModelFields {
  const { request, family, extensions, losses } = options;
  const fields: JsonObject = { ...extensions.additionalModelRequestFields };
  const result: EncodedModelFields = { thinkingOn: false };
  const effort = request.reasoning?.effort;
  const kept = storedEffort(extensions);
  switch (family) {
    case 'anthropic': {
      const maxTokens = request.maxOutputTokens ?? options.defaultMaxTokens;
      let reasoning = encodeReasoning({
        reasoning: request.reasoning,
        maxTokens,
        storedThinking: extensions.thinking,
        storedEffort: kept,
        losses,
      });
      if (isThinkingOn(reasoning.thinking)) {
        const conflict = thinkingConflict(options.messages, options.toolChoice);
        if (conflict) {
          losses.dropped('reasoning', conflict);
          reasoning = reasoning.effort === undefined ? {} : { effort: reasoning.effort };
        }
      }
      if (reasoning.thinking) {
        fields.thinking = reasoning.thinking;
        result.maxTokens = maxTokens;
      }
      if (reasoning.effort !== undefined) result.effort = reasoning.effort;
      result.thinkingOn = isThinkingOn(reasoning.thinking);
      if (request.topK !== undefined) {
        if (result.thinkingOn) losses.dropped('topK', 'Claude thinking accepts no top_k');
        else fields.top_k = request.topK;
      }
      break;
    }
    case 'nova':
    case 'nova-2': {
      if (request.topK !== undefined)
        fields.inferenceConfig = { ...asJsonObject(fields.inferenceConfig), topK: request.topK };
      if (effort !== undefined && effort === kept) result.effort = kept;
      else if (family === 'nova-2') Object.assign(fields, novaReasoning(request, losses));
      else if (request.reasoning !== undefined)
        losses.dropped('reasoning', 'Nova models before Nova 2 have no reasoning setting');
      break;
    }
    case 'other':
      if (request.topK !== undefined) losses.dropped('topK', 'no top-k setting known for this Bedrock model');
      if (effort !== undefined && kept !== undefined) result.effort = effort;
      else if (request.reasoning !== undefined)
        losses.dropped('reasoning', 'no reasoning setting known for this Bedrock model');
      break;
    default: {
      const unreachable: never = family;
      return unreachable;
    }
  }
  if (Object.keys(fields).length > 0) result.fields = fields;
  return result;
}

/** Nova 2's `reasoningConfig`: an effort (a budget is said as medium), or disabled. */
function novaReasoning(request: CanonicalRequest, losses: LossLog): JsonObject {
  const reasoning = request.reasoning;
  if (!reasoning) return {};
  if (reasoning.effort === 'none' || (reasoning.effort === undefined && reasoning.enabled === false))
    return { reasoningConfig: { type: 'disabled' } };
  let effort: 'low' | 'medium' | 'high' | undefined;
  if (reasoning.effort !== undefined) {
    effort = NOVA_EFFORT[reasoning.effort];
    if (effort !== reasoning.effort)
      losses.coerced('reasoning.effort', `Nova 2 has no ${reasoning.effort} effort: ${effort}`);
  } else if (reasoning.budgetTokens !== undefined) {
    losses.coerced('reasoning.budgetTokens', 'Nova 2 takes an effort, not a budget: medium');
    effort = 'medium';
  } else if (reasoning.enabled === true) effort = 'medium';
  return effort ? { reasoningConfig: { type: 'enabled', maxReasoningEffort: effort } } : {};
}

/**
 * Why Claude would refuse thinking in this request, if it would: a tool loop whose calling turn
 * lost its signed reasoning, or a forced tool choice
 * (https://docs.aws.amazon.com/bedrock/latest/userguide/claude-messages-extended-thinking.html).
 */
function thinkingConflict(
  messages: ConverseMessage[],
  toolChoice: ConverseToolChoice | undefined,
): string | undefined {
  const caller = messages.at(-2);
  const last = messages.at(-1);
  if (
    caller?.role === 'assistant' &&
    last?.role === 'user' &&
    last.content.some((block) => 'toolResult' in block)
  ) {
    const first = caller.content[0];
    if (!first || !('reasoningContent' in first))
      return 'Claude thinks in a tool loop only when the calling turn comes back with its signed reasoning first, and this one has none: thinking off';
  }
  if (toolChoice && ('any' in toolChoice || 'tool' in toolChoice))
    return 'Claude does not think when the tool choice forces tool use: thinking off, the forced tool choice kept';
  return undefined;
}
