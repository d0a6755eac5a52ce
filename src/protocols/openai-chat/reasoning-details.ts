import type { IssuedToken, ReasoningPart, TokenIssuer, ToolCallPart } from '../../ir/content.js';
import type { LossLog } from '../../ir/loss.js';
import { InvalidRequestError } from '../invalid-request-error.js';
import { asString, isJsonObject, membersOf } from '../wire-json.js';
import type {
  OpenAIChatExtraContent,
  OpenAIChatReasoningDetail,
  OpenAIChatReasoningFormat,
} from './wire-types.js';

/**
 * Chat completions has no field of its own for reasoning signatures. Replies to chat clients carry
 * them in OpenRouter's `reasoning_details`, which chat clients already keep and echo back
 * (https://openrouter.ai/docs/use-cases/reasoning-tokens#preserving-reasoning-blocks): `format`
 * names the vendor that issued the token, so each token returns to its issuer only. A Gemini
 * signature on a function call goes where Google's OpenAI-compatible endpoint puts it,
 * `tool_calls[i].extra_content.google.thought_signature`
 * (https://ai.google.dev/gemini-api/docs/thought-signatures#openai).
 */

const formats: Record<TokenIssuer, OpenAIChatReasoningFormat> = {
  anthropic: 'anthropic-claude-v1',
  gemini: 'google-gemini-v1',
  openai: 'openai-responses-v1',
};

function issuerOf(format: unknown): TokenIssuer | undefined {
  switch (format) {
    case 'anthropic-claude-v1':
      return 'anthropic';
    case 'google-gemini-v1':
      return 'gemini';
    case 'openai-responses-v1':
      return 'openai';
    default:
      return undefined;
  }
}

/** What a reasoning block holds, whole: a reply's part, or a streamed block once it ended. */
export type ReasoningBlock = Pick<ReasoningPart, 'text' | 'signature' | 'redactedData'>;

/**
 * `reasoning_details` for the reasoning blocks of one message, `index` counting the blocks. A block
 * with text (or a signature) is a `reasoning.text` entry; redacted data (Anthropic
 * `redacted_thinking`, Responses `encrypted_content`) is a `reasoning.encrypted` entry with the
 * same index, so a block with both comes back as one.
 */
export function encodeReasoningDetails(blocks: readonly ReasoningBlock[]): OpenAIChatReasoningDetail[] {
  return blocks.flatMap((block, index): OpenAIChatReasoningDetail[] => {
    const entries: OpenAIChatReasoningDetail[] = [];
    const issuer = block.signature?.issuer ?? block.redactedData?.issuer;
    const format = issuer ? formats[issuer] : 'unknown';
    if (block.text !== '' || block.signature || !block.redactedData)
      entries.push({
        type: 'reasoning.text',
        text: block.text,
        ...(block.signature && { signature: block.signature.value }),
        format,
        index,
      });
    if (block.redactedData)
      entries.push({
        type: 'reasoning.encrypted',
        data: block.redactedData.value,
        format: formats[block.redactedData.issuer],
        index,
      });
    return entries;
  });
}

/** A tool call's Gemini signature as `extra_content`; any other vendor's has no place here. */
export function encodeToolCallExtraContent(
  signature: IssuedToken | undefined,
  context: { path: string; losses: LossLog },
): OpenAIChatExtraContent | undefined {
  if (!signature) return undefined;
  if (signature.issuer === 'gemini') return { google: { thought_signature: signature.value } };
  context.losses.dropped(
    context.path,
    `chat completions tool calls carry only Gemini signatures, not ${signature.issuer}'s`,
  );
  return undefined;
}

/** `extra_content.google.thought_signature` of an echoed tool call, as the Gemini token it is. */
export function decodeToolCallExtraContent(value: unknown): IssuedToken | undefined {
  const signature = asString(membersOf(membersOf(value).google).thought_signature);
  return signature ? { issuer: 'gemini', value: signature } : undefined;
}

/** Reasoning parts read from `reasoning_details`, and Gemini signatures that belong to tool calls. */
export interface DecodedReasoningDetails {
  parts: ReasoningPart[];
  /** Gemini signatures OpenRouter files as `reasoning.encrypted` entries naming a tool call by `id`. */
  toolCallSignatures: Map<string, IssuedToken>;
}

/**
 * An assistant message's `reasoning_details`. Consecutive entries with the same `index` are one
 * block (a streamed block echoed piece by piece, or text beside its encrypted data). A token whose
 * `format` names no vendor the gateway knows cannot be returned to its issuer: it is dropped and
 * recorded, and the text kept.
 */
export function decodeReasoningDetails(
  value: unknown,
  context: { path: string; losses: LossLog; toolCallIds: ReadonlySet<string> },
): DecodedReasoningDetails {
  if (!Array.isArray(value)) throw new InvalidRequestError(context.path, 'must be an array');
  const parts: ReasoningPart[] = [];
  const toolCallSignatures = new Map<string, IssuedToken>();
  let current: { part: ReasoningPart; index: unknown } | undefined;
  value.forEach((entry: unknown, position) => {
    const path = `${context.path}[${position}]`;
    if (!isJsonObject(entry)) throw new InvalidRequestError(path, 'must be an object');
    const issuer = issuerOf(entry.format);
    const token = (text: string | undefined, field: string): IssuedToken | undefined => {
      if (text === undefined || text === '') return undefined;
      if (issuer) return { issuer, value: text };
      context.losses.dropped(
        `${path}.${field}`,
        `a token of format ${JSON.stringify(entry.format)} has no issuer the gateway can return it to`,
      );
      return undefined;
    };
    const id = asString(entry.id);
    if (entry.type === 'reasoning.encrypted' && issuer === 'gemini' && id && context.toolCallIds.has(id)) {
      const signature = asString(entry.data);
      if (signature) toolCallSignatures.set(id, { issuer, value: signature });
      return;
    }
    const sameBlock =
      current && typeof entry.index === 'number' && current.index === entry.index ? current.part : undefined;
    const part: ReasoningPart = sameBlock ?? { type: 'reasoning', text: '' };
    switch (entry.type) {
      case 'reasoning.text': {
        part.text += asString(entry.text) ?? '';
        const signature = token(asString(entry.signature), 'signature');
        if (signature) part.signature = signature;
        break;
      }
      case 'reasoning.summary':
        part.text += asString(entry.summary) ?? '';
        break;
      case 'reasoning.encrypted': {
        const data = token(asString(entry.data), 'data');
        if (data) part.redactedData = data;
        break;
      }
      default:
        context.losses.dropped(path, `a reasoning detail of type ${JSON.stringify(entry.type)} is unknown`);
        return;
    }
    if (!sameBlock) {
      parts.push(part);
      current = { part, index: entry.index };
    }
  });
  return {
    parts: parts.filter((part) => part.text !== '' || part.signature || part.redactedData),
    toolCallSignatures,
  };
}

/** A decoded tool call with the Gemini signature found for it, if any. */
export function withToolCallSignature(
  call: ToolCallPart,
  signatures: ReadonlyMap<string, IssuedToken>,
): ToolCallPart {
  if (call.signature) return call;
  const signature = signatures.get(call.id);
  return signature ? { ...call, signature } : call;
}
