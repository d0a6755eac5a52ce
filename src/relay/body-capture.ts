import { redactStoredBody } from '../guardrails/redact-stored-body.js';
import type { LoggedBody } from '../store/usage-log-bodies-repository.js';

export interface BodyCaptureOptions {
  requestId: string;
  /** The request body as the client sent it. */
  requestBody: Buffer;
  /** `body_log_max_bytes`: each body is cut past this many bytes. */
  maxBytes: number;
  /** `redact_pii` is not `off`: personal data is cut from the stored bodies as well as credentials. */
  redactPii: boolean;
}

/**
 * The bodies of one request whose key logs them (admin-api section 12): the request as received
 * and the response as written to the client, chunk by chunk for a stream. Past `maxBytes` the
 * response's further chunks are not kept, so a long stream costs at most that much memory here.
 */
export class BodyCapture {
  private readonly parts: (Buffer | string)[] = [];
  private responseBytes = 0;
  private responseCut = false;
  private answered = false;
  private withRecord = false;

  constructor(private readonly options: BodyCaptureOptions) {}

  /** The request leaves a usage record: its bodies are stored with it. */
  recorded(): void {
    this.withRecord = true;
  }

  /** Part of the response, as it was written to the client. */
  add(chunk: Buffer | string): void {
    this.answered = true;
    if (this.responseCut) return;
    const room = this.options.maxBytes - this.responseBytes;
    const size = typeof chunk === 'string' ? Buffer.byteLength(chunk) : chunk.length;
    if (size <= room) {
      // A copy: the chunk's buffer may be a slice of a larger one that should not be kept alive.
      this.parts.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk));
      this.responseBytes += size;
      return;
    }
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    this.parts.push(Buffer.from(bytes.subarray(0, room)));
    this.responseBytes += room;
    this.responseCut = true;
  }

  /** What to store, once the response is over; undefined when the request left no usage record. */
  stored(): LoggedBody | undefined {
    if (!this.withRecord) return undefined;
    const { requestBody, maxBytes } = this.options;
    const requestCut = requestBody.length > maxBytes;
    const request = this.redacted(
      requestCut ? textOf([requestBody.subarray(0, maxBytes)], true) : requestBody.toString(),
    );
    const response = this.answered ? this.redacted(textOf(this.parts, this.responseCut)) : null;
    return {
      requestId: this.options.requestId,
      createdAt: Math.floor(Date.now() / 1000),
      requestBody: request.text,
      responseBody: response === null ? null : response.text,
      truncated: requestCut || this.responseCut || request.cut || response?.cut === true,
    };
  }

  /**
   * Without credentials (and personal data, when asked), and within the limit again: a redaction
   * marker may be longer than what it replaced.
   */
  private redacted(text: string): { text: string; cut: boolean } {
    const { maxBytes, redactPii } = this.options;
    const redacted = redactStoredBody(text, { pii: redactPii });
    if (redacted.length * 3 <= maxBytes || Buffer.byteLength(redacted) <= maxBytes)
      return { text: redacted, cut: false };
    return { text: textOf([Buffer.from(redacted).subarray(0, maxBytes)], true), cut: true };
  }
}

/**
 * The text of `parts`. A cut one ends at the last whole character, and without the token it may
 * have cut in two: a credential cut short would no longer look like one to the redaction.
 */
function textOf(parts: readonly (Buffer | string)[], cut: boolean): string {
  if (!cut && parts.every((part) => typeof part === 'string')) return parts.join('');
  const bytes = Buffer.concat(parts.map((part) => (typeof part === 'string' ? Buffer.from(part) : part)));
  if (!cut) return bytes.toString();
  const text = new TextDecoder().decode(bytes, { stream: true });
  let end = text.length;
  while (end > 0 && TOKEN_CHARACTER.test(text[end - 1]!)) end -= 1;
  return text.slice(0, end);
}

const TOKEN_CHARACTER = /[\w.+/=~-]/;
