import type { Part, ReasoningPart, ToolCallPart, ToolResultPart } from '../../ir/content.js';
import type { LossLog } from '../../ir/loss.js';
import { encodeGeminiFile } from './encode-file.js';
import { encodeGeminiToolResponse } from './encode-tool-response.js';
import { GEMINI, geminiThoughtOrigin } from './gemini-extensions.js';
import { isJsonObject, parseJson, type JsonObject } from '../wire-json.js';

export interface EncodePartsOptions {
  /** Path of the message in the source, e.g. `messages[2]`. */
  path: string;
  losses: LossLog;
  role: 'user' | 'model';
  /** Whether a call id goes out as `id` on function calls and responses. */
  sendId(id: string): boolean;
  /** Function name of an earlier call, for tool results that do not carry one. */
  toolName(toolCallId: string): string | undefined;
  /**
   * Reasoning without a signature: a client is shown it as thought parts; an upstream gets it
   * back only if it was Gemini's own (it ignores thought text it cannot verify).
   */
  unsignedReasoning: 'show' | 'drop';
  /**
   * Empty text without a thought signature: an upstream refuses it ("Unable to submit request
   * because it has an empty text parameter"); a client is shown it as it came.
   */
  emptyText: 'keep' | 'drop';
}

/** A signature waiting for the part it belongs on. */
interface PendingSignature {
  signature: string;
  /** Also onto a function call without its own signature (signatures from other protocols). */
  ontoCalls: boolean;
}

/**
 * Canonical parts as Gemini `Part`s (https://ai.google.dev/api/caching#Part). Reasoning goes back
 * as `thought` parts only with a signature, unless it came from Gemini in the first place;
 * a reasoning part with a signature and no text is a signature that rode on the next text, file
 * or call, and goes back onto it.
 */
export function encodeGeminiParts(parts: Part[], options: EncodePartsOptions): JsonObject[] {
  const { losses, role } = options;
  const out: JsonObject[] = [];
  let pending: PendingSignature | undefined;
  const flush = () => {
    if (pending) out.push({ text: '', thoughtSignature: pending.signature });
    pending = undefined;
  };
  const take = (): JsonObject => {
    const signature = pending?.signature;
    pending = undefined;
    return signature === undefined ? {} : { thoughtSignature: signature };
  };

  for (const [index, part] of parts.entries()) {
    const path = `${options.path}.parts[${index}]`;
    switch (part.type) {
      case 'text':
        if (part.text === '' && !pending && options.emptyText === 'drop') {
          losses.dropped(path, 'Gemini refuses empty text parts');
          break;
        }
        if (part.cacheControl) losses.dropped(`${path}.cacheControl`, 'Gemini has no prompt-cache markers');
        out.push({ text: part.text, ...take() });
        break;
      case 'file': {
        const file = encodeGeminiFile(part, path, losses);
        if (file) out.push({ ...file, ...take() });
        break;
      }
      case 'reasoning': {
        if (role === 'user') {
          losses.dropped(path, 'reasoning in a user turn');
          break;
        }
        const next = encodeReasoning(part, { path, losses, unsigned: options.unsignedReasoning });
        if (next.kind === 'none') break;
        flush();
        if (next.kind === 'part') out.push(next.part);
        else pending = next.pending;
        break;
      }
      case 'tool-call': {
        if (role === 'user') {
          losses.dropped(path, 'a tool call in a user turn');
          break;
        }
        if (pending && (!pending.ontoCalls || part.signature !== undefined)) flush();
        const signature = part.signature === undefined ? take() : { thoughtSignature: part.signature };
        out.push({ functionCall: encodeCall(part, { path, options }), ...signature });
        break;
      }
      case 'tool-result':
        if (role === 'model') {
          losses.dropped(path, 'a tool result in a model turn');
          break;
        }
        flush();
        out.push({ functionResponse: encodeResult(part, { path, options }) });
        break;
      case 'raw':
        if (part.protocol !== GEMINI || !isJsonObject(part.value)) {
          losses.dropped(path, `a block of ${part.protocol} that Gemini cannot read`);
          break;
        }
        flush();
        out.push(part.value);
        break;
      default: {
        const unhandled: never = part;
        return unhandled;
      }
    }
  }
  flush();
  return out;
}

type EncodedReasoning =
  { kind: 'none' } | { kind: 'part'; part: JsonObject } | { kind: 'pending'; pending: PendingSignature };

function encodeReasoning(
  part: ReasoningPart,
  context: { path: string; losses: LossLog; unsigned: 'show' | 'drop' },
): EncodedReasoning {
  const { path, losses } = context;
  if (part.redactedData !== undefined)
    losses.dropped(`${path}.redactedData`, 'Gemini has no redacted reasoning');
  const origin = geminiThoughtOrigin(part);
  const signature = part.signature;
  if (origin === true || (signature === undefined && context.unsigned === 'show' && part.text !== ''))
    return {
      kind: 'part',
      part: { text: part.text, thought: true, ...(signature && { thoughtSignature: signature }) },
    };
  if (signature !== undefined && part.text === '')
    return { kind: 'pending', pending: { signature, ontoCalls: origin === undefined } };
  if (signature !== undefined)
    return { kind: 'part', part: { text: part.text, thought: true, thoughtSignature: signature } };
  if (part.text !== '') losses.dropped(path, 'reasoning without a signature cannot go back to Gemini');
  return { kind: 'none' };
}

function encodeCall(part: ToolCallPart, context: { path: string; options: EncodePartsOptions }): JsonObject {
  const { options } = context;
  const text = part.arguments.trim();
  const parsed = text === '' ? { ok: true as const, value: {} } : parseJson(text);
  let args: JsonObject;
  if (parsed.ok && isJsonObject(parsed.value)) args = parsed.value;
  else {
    options.losses.coerced(`${context.path}.arguments`, 'not a JSON object; sent as {"arguments": <text>}');
    args = { arguments: part.arguments };
  }
  return { ...(options.sendId(part.id) && { id: part.id }), name: part.name, args };
}

function encodeResult(
  part: ToolResultPart,
  context: { path: string; options: EncodePartsOptions },
): JsonObject {
  const { path, options } = context;
  const { losses } = options;
  if (part.cacheControl) losses.dropped(`${path}.cacheControl`, 'Gemini has no prompt-cache markers');
  let name = part.name ?? options.toolName(part.toolCallId);
  if (name === undefined) {
    losses.coerced(`${path}.name`, 'no function name known for this result; sent as "unknown"');
    name = 'unknown';
  }
  const texts: string[] = [];
  const files: JsonObject[] = [];
  for (const [index, item] of part.content.entries()) {
    if (item.type === 'text') texts.push(item.text);
    else {
      const file = encodeGeminiFile(item, `${path}.content[${index}]`, losses);
      if (file) files.push(file);
    }
  }
  if (texts.length > 1) losses.coerced(`${path}.content`, 'several text blocks joined into one response');
  return {
    ...(options.sendId(part.toolCallId) && { id: part.toolCallId }),
    name,
    response: encodeGeminiToolResponse(texts.join('\n'), part.isError === true),
    ...(files.length > 0 && { parts: files }),
  };
}
