import type { IssuedToken, Part, ReasoningPart, ToolCallPart, ToolResultPart } from '../../ir/content.js';
import type { LossLog } from '../../ir/loss.js';
import { writeIssuedToken } from '../issued-token.js';
import { encodeGeminiFile } from './encode-file.js';
import { encodeGeminiToolResponse } from './encode-tool-response.js';
import { GEMINI, geminiThoughtOrigin } from './gemini-extensions.js';
import {
  asOpaquePart,
  type GeminiFilePart,
  type GeminiFunctionCall,
  type GeminiFunctionResponse,
  type GeminiPart,
} from './wire-types.js';
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
   * Who reads the parts. Gemini itself (`upstream`) takes back only the signatures it issued,
   * ignores thought text it cannot verify, and refuses empty text ("Unable to submit request
   * because it has an empty text parameter"). A Gemini client (`client`) is shown every part as
   * it came, with every vendor's token written where it can echo it back
   * (https://ai.google.dev/gemini-api/docs/thought-signatures).
   */
  target: 'upstream' | 'client';
}

/** A Gemini signature, as written, waiting for the part it belongs on. */
interface PendingSignature {
  signature: string;
  /** Also onto a function call without its own signature (signatures from other protocols). */
  ontoCalls: boolean;
}

/**
 * Canonical parts as Gemini `Part`s (https://ai.google.dev/api/caching#Part). Reasoning goes back
 * to Gemini as `thought` parts only with Gemini's signature, unless it came from Gemini in the
 * first place; a reasoning part with a Gemini signature and no text is a signature that rode on
 * the next text, file or call and goes back onto it, or, coming from another protocol, one that
 * followed the call it belongs to (Anthropic and Responses clients carry it after the call).
 */
export function encodeGeminiParts(parts: Part[], options: EncodePartsOptions): GeminiPart[] {
  const { losses, role, target } = options;
  const out: GeminiPart[] = [];
  let pending: PendingSignature | undefined;
  const flush = () => {
    if (pending) out.push({ text: '', thoughtSignature: pending.signature });
    pending = undefined;
  };
  const take = (): { thoughtSignature?: string } => {
    const signature = pending?.signature;
    pending = undefined;
    return signature === undefined ? {} : { thoughtSignature: signature };
  };

  for (const [index, part] of parts.entries()) {
    const path = `${options.path}.parts[${index}]`;
    switch (part.type) {
      case 'text':
        // Whitespace says nothing either, and would leave a turn that says nothing.
        if (part.text.trim() === '' && !pending && target === 'upstream') {
          losses.dropped(path, part.text === '' ? 'Gemini refuses empty text parts' : 'whitespace-only text');
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
        const next = encodeReasoning(part, { path, losses, target });
        if (next.parts.length > 0) {
          flush();
          out.push(...next.parts);
        }
        if (next.pending === undefined) break;
        const previous = out.at(-1);
        if (
          next.pending.ontoCalls &&
          !pending &&
          previous !== undefined &&
          'functionCall' in previous &&
          previous.thoughtSignature === undefined
        )
          previous.thoughtSignature = next.pending.signature;
        else {
          flush();
          pending = next.pending;
        }
        break;
      }
      case 'tool-call': {
        if (role === 'user') {
          losses.dropped(path, 'a tool call in a user turn');
          break;
        }
        const own = tokenFor(part.signature, { path: `${path}.signature`, losses, target });
        if (pending && (!pending.ontoCalls || own !== undefined)) flush();
        const signature = own === undefined ? take() : { thoughtSignature: own.written };
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
        out.push(asOpaquePart(part.value));
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

/**
 * A token as the reader takes it: Gemini gets back only what it issued (another vendor's token
 * is dropped, never forwarded); a Gemini client gets every token, another vendor's behind its
 * marker, so that it comes back to its issuer.
 */
function tokenFor(
  token: IssuedToken | undefined,
  context: { path: string; losses: LossLog; target: 'upstream' | 'client'; role?: 'redacted' },
): { written: string; gemini: boolean } | undefined {
  if (token === undefined) return undefined;
  const gemini = token.issuer === 'gemini';
  if (context.target === 'upstream' && !gemini) {
    context.losses.dropped(context.path, `issued by ${token.issuer}; Gemini cannot verify it`);
    return undefined;
  }
  return {
    written: writeIssuedToken(token, { ownVendor: GEMINI, ...(context.role && { role: context.role }) }),
    gemini,
  };
}

interface EncodedReasoning {
  parts: GeminiPart[];
  pending?: PendingSignature;
}

function encodeReasoning(
  part: ReasoningPart,
  context: { path: string; losses: LossLog; target: 'upstream' | 'client' },
): EncodedReasoning {
  const { path, losses, target } = context;
  const origin = geminiThoughtOrigin(part);
  const signature = tokenFor(part.signature, { path: `${path}.signature`, losses, target });
  // Gemini has no redacted reasoning; a Gemini client keeps the data as a thought signature.
  const redacted = tokenFor(part.redactedData, {
    path: `${path}.redactedData`,
    losses,
    target,
    role: 'redacted',
  });
  if (redacted?.gemini === true && target === 'upstream')
    losses.dropped(`${path}.redactedData`, 'Gemini has no redacted reasoning');
  const data = target === 'client' ? redacted?.written : undefined;

  if (signature?.gemini === true && part.text === '' && origin !== true && data === undefined)
    return { parts: [], pending: { signature: signature.written, ontoCalls: origin === undefined } };
  const parts: GeminiPart[] = [];
  // Redacted data alone closes the reasoning's own text, which decodes back to the one part.
  const closing = signature?.written ?? data;
  if (closing !== undefined) parts.push({ text: part.text, thought: true, thoughtSignature: closing });
  else if (part.text !== '' && (origin === true || target === 'client'))
    parts.push({ text: part.text, thought: true });
  else if (part.text !== '') losses.dropped(path, 'reasoning without a signature cannot go back to Gemini');
  if (signature !== undefined && data !== undefined)
    parts.push({ text: '', thought: true, thoughtSignature: data });
  return { parts };
}

function encodeCall(
  part: ToolCallPart,
  context: { path: string; options: EncodePartsOptions },
): GeminiFunctionCall {
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
): GeminiFunctionResponse {
  const { path, options } = context;
  const { losses } = options;
  if (part.cacheControl) losses.dropped(`${path}.cacheControl`, 'Gemini has no prompt-cache markers');
  let name = part.name ?? options.toolName(part.toolCallId);
  if (name === undefined) {
    losses.coerced(`${path}.name`, 'no function name known for this result; sent as "unknown"');
    name = 'unknown';
  }
  const texts: string[] = [];
  const files: GeminiFilePart[] = [];
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
