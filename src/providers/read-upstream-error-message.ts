import { isJsonObject as isRecord, parseJson } from '../protocols/wire-json.js';
const maxLength = 300;

/**
 * The human message inside an upstream error body, whatever the vendor: `{error:{message}}`
 * (OpenAI, Anthropic, Gemini), `[{error:{message}}]` (Gemini streams), `{error:"..."}` or
 * `{message:"..."}` (compatible vendors), or short plain text. Undefined for HTML and empty bodies.
 */
export function readUpstreamErrorMessage(bodyText: string): string | undefined {
  const text = bodyText.trim();
  if (!text) return undefined;
  const parsed = parseJson(text);
  if (parsed.ok) {
    const message = messageOf(Array.isArray(parsed.value) ? parsed.value[0] : parsed.value);
    return message === undefined ? undefined : shorten(message);
  }
  if (text.startsWith('<')) return undefined;
  return shorten(text);
}

function messageOf(value: unknown): string | undefined {
  if (!isRecord(value)) return undefined;
  const { error, message } = value;
  if (typeof error === 'string' && error) return error;
  if (isRecord(error) && typeof error.message === 'string' && error.message) return error.message;
  if (typeof message === 'string' && message) return message;
  return undefined;
}

function shorten(message: string): string {
  const oneLine = message.replace(/\s+/g, ' ').trim();
  return oneLine.length > maxLength ? `${oneLine.slice(0, maxLength)}...` : oneLine;
}
