import type { FinishReason } from '../../ir/reply.js';

/** `Candidate.finishReason` values (https://ai.google.dev/api/generate-content#FinishReason). */
export const geminiFinishReasons = [
  'FINISH_REASON_UNSPECIFIED',
  'STOP',
  'MAX_TOKENS',
  'SAFETY',
  'RECITATION',
  'LANGUAGE',
  'OTHER',
  'BLOCKLIST',
  'PROHIBITED_CONTENT',
  'SPII',
  'MALFORMED_FUNCTION_CALL',
  'IMAGE_SAFETY',
  'IMAGE_PROHIBITED_CONTENT',
  'IMAGE_RECITATION',
  'IMAGE_OTHER',
  'NO_IMAGE',
  'UNEXPECTED_TOOL_CALL',
  'TOO_MANY_TOOL_CALLS',
  'CONTINUATION',
] as const;

export type GeminiFinishReason = (typeof geminiFinishReasons)[number];

export function isGeminiFinishReason(value: unknown): value is GeminiFinishReason {
  return (geminiFinishReasons as readonly unknown[]).includes(value);
}

/**
 * Gemini's finish reason, normalized. Gemini has no reason of its own for tool calls: a `STOP`
 * whose parts hold function calls means the model wants them run.
 */
export function mapGeminiFinishReason(
  raw: string | undefined,
  options: { hasToolCalls: boolean },
): FinishReason {
  return { unified: unifiedOf(raw, options.hasToolCalls), raw };
}

function unifiedOf(raw: string | undefined, hasToolCalls: boolean): FinishReason['unified'] {
  if (!isGeminiFinishReason(raw)) return 'other';
  switch (raw) {
    case 'STOP':
      return hasToolCalls ? 'tool-calls' : 'stop';
    case 'MAX_TOKENS':
    case 'CONTINUATION':
      return 'length';
    case 'SAFETY':
    case 'RECITATION':
    case 'BLOCKLIST':
    case 'PROHIBITED_CONTENT':
    case 'SPII':
    case 'IMAGE_SAFETY':
    case 'IMAGE_PROHIBITED_CONTENT':
    case 'IMAGE_RECITATION':
      return 'content-filter';
    case 'MALFORMED_FUNCTION_CALL':
    case 'UNEXPECTED_TOOL_CALL':
    case 'TOO_MANY_TOOL_CALLS':
      return 'error';
    case 'FINISH_REASON_UNSPECIFIED':
    case 'LANGUAGE':
    case 'OTHER':
    case 'IMAGE_OTHER':
    case 'NO_IMAGE':
      return 'other';
    default: {
      const unhandled: never = raw;
      return unhandled;
    }
  }
}

/**
 * A canonical finish reason as Gemini writes it. A raw Gemini value that still means the same is
 * kept (so `SPII` stays `SPII`); anything else takes the closest Gemini value.
 */
export function encodeGeminiFinishReason(finishReason: FinishReason): GeminiFinishReason {
  const { unified, raw } = finishReason;
  if (isGeminiFinishReason(raw) && unifiedOf(raw, unified === 'tool-calls') === unified) return raw;
  switch (unified) {
    case 'stop':
    case 'tool-calls':
      return 'STOP';
    case 'length':
      return 'MAX_TOKENS';
    case 'content-filter':
      return 'SAFETY';
    case 'error':
    case 'other':
      return 'OTHER';
    default: {
      const unhandled: never = unified;
      return unhandled;
    }
  }
}
