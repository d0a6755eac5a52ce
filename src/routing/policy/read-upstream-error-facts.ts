import { asString, isJsonObject, parseJson, type JsonObject } from '../../protocols/wire-json.js';

/**
 * What an upstream error says about itself, whatever the vendor: its machine-readable names
 * (codes, types, statuses, reasons; lower-cased) and its human messages.
 */
export interface UpstreamErrorFacts {
  codes: ReadonlySet<string>;
  messages: readonly string[];
}

export interface UpstreamErrorSource {
  /** The error body as received (bytes or text). */
  body?: Uint8Array | string | undefined;
  /** The same body already parsed as JSON: read instead of `body`. */
  json?: unknown;
  /** The reply's headers: Bedrock names its exception in `x-amzn-errortype`, not in the body. */
  headers?: Readonly<Record<string, string | readonly string[] | undefined>> | undefined;
}

/**
 * Reads every error shape the gateway's upstreams send, without asking which protocol was
 * spoken: the shape does not follow the protocol (Bedrock answers a Claude `invoke` in AWS's
 * shape, Vertex's front door answers a Claude `rawPredict` in Google's, aggregators pass other
 * vendors' errors on).
 *
 * - OpenAI, Azure and compatible servers: `{"error":{"message","type","param","code"}}`, Azure
 *   adding `innererror.code`; Mistral and vLLM put the same members at the top level; Ollama
 *   sends `{"error":"..."}` (https://platform.openai.com/docs/guides/error-codes).
 * - Anthropic: `{"type":"error","error":{"type","message"}}` (https://docs.anthropic.com/en/api/errors).
 * - Gemini and Vertex: `{"error":{"code","message","status","details":[{"reason"}]}}`, or an
 *   array of those (https://ai.google.dev/gemini-api/docs/troubleshooting#error-codes).
 * - Bedrock: `{"message"}` with the exception in the `x-amzn-errortype` header
 *   (https://docs.aws.amazon.com/bedrock/latest/APIReference/CommonErrors.html).
 * - Plain text, kept as a message; an HTML page says nothing.
 */
export function readUpstreamErrorFacts(source: UpstreamErrorSource): UpstreamErrorFacts {
  const codes = new Set<string>();
  const messages: string[] = [];
  const exception = headerValue(source.headers, 'x-amzn-errortype');
  if (exception) addCode(codes, exception.split(':')[0]);
  const value = source.json !== undefined ? source.json : parseBody(source.body, messages);
  const root = Array.isArray(value) ? value[0] : value;
  if (isJsonObject(root)) readErrorObject(root, { codes, messages }, 0);
  return { codes, messages };
}

/** How deep `error` objects nest: a stream event wrapping a response's error is the deepest seen. */
const MAX_NESTING = 3;

function readErrorObject(
  record: JsonObject,
  facts: { codes: Set<string>; messages: string[] },
  depth: number,
): void {
  const { codes, messages } = facts;
  for (const key of ['code', 'type', 'status', '__type'] as const) addCode(codes, record[key]);
  for (const key of ['message', 'Message'] as const) {
    const message = asString(record[key]);
    if (message) messages.push(message);
  }
  if (isJsonObject(record.innererror)) addCode(codes, record.innererror.code);
  if (Array.isArray(record.details))
    for (const detail of record.details) if (isJsonObject(detail)) addCode(codes, detail.reason);
  const { error } = record;
  if (typeof error === 'string' && error) messages.push(error);
  else if (isJsonObject(error) && depth < MAX_NESTING) readErrorObject(error, facts, depth + 1);
}

function parseBody(body: Uint8Array | string | undefined, messages: string[]): unknown {
  if (body === undefined) return undefined;
  const text = (typeof body === 'string' ? body : Buffer.from(body).toString('utf8')).trim();
  if (!text) return undefined;
  const parsed = parseJson(text);
  if (parsed.ok) return parsed.value;
  if (!text.startsWith('<')) messages.push(text);
  return undefined;
}

/** Codes as names: `ValidationException`, `com.amazon.coral.validate#ValidationException`, `1301`, 400. */
function addCode(codes: Set<string>, value: unknown): void {
  const text = typeof value === 'number' && Number.isFinite(value) ? String(value) : asString(value);
  if (!text) return;
  const name = text
    .slice(text.lastIndexOf('#') + 1)
    .trim()
    .toLowerCase();
  if (name) codes.add(name);
}

function headerValue(headers: UpstreamErrorSource['headers'], name: string): string | undefined {
  const value = headers?.[name];
  return typeof value === 'string' ? value : value?.[0];
}
