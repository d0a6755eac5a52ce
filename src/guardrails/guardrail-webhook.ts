import { isJsonObject, parseJson } from '../protocols/wire-json.js';

/** What a webhook guardrail is sent (admin-api section 12). */
export interface GuardrailQuestion {
  model: string;
  endpoint: string;
  user_id: number;
  key_id: number;
  texts: string[];
}

export type WebhookAnswer = { allow: boolean; reason: string | undefined } | { failed: string };

/** Calls at once to webhook guardrails, for the whole process: past it, a check fails at once. */
const MAX_IN_FLIGHT = 64;
/** The longest answer read: `{"allow": ..., "reason": ...}` needs far less. */
const MAX_ANSWER_BYTES = 64 * 1024;

/**
 * Webhook guardrails' calls: each bounded by the guardrail's `timeout_ms`, and together by a cap on
 * calls in flight, so a slow or dead guardrail costs a request at most its timeout and can never
 * pile up connections until the process runs out. Any answer but a 2xx JSON object with a boolean
 * `allow` is a failure, which the guardrail's `fail` decides.
 */
export class GuardrailWebhooks {
  private inFlight = 0;

  constructor(private readonly maxInFlight = MAX_IN_FLIGHT) {}

  async ask(url: string, question: GuardrailQuestion, timeoutMs: number): Promise<WebhookAnswer> {
    if (this.inFlight >= this.maxInFlight)
      return { failed: `more than ${this.maxInFlight} guardrail calls at once` };
    this.inFlight += 1;
    try {
      const response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(question),
        signal: AbortSignal.timeout(timeoutMs),
        redirect: 'error',
      });
      const text = await readBounded(response);
      if (!response.ok) return { failed: `the guardrail answered HTTP ${response.status}` };
      const parsed = parseJson(text);
      if (!parsed.ok || !isJsonObject(parsed.value) || typeof parsed.value.allow !== 'boolean')
        return { failed: 'the guardrail answered without a boolean allow' };
      const { reason } = parsed.value;
      return { allow: parsed.value.allow, reason: typeof reason === 'string' ? reason : undefined };
    } catch (error) {
      const timedOut = error instanceof Error && error.name === 'TimeoutError';
      return {
        failed: timedOut
          ? `no answer within ${timeoutMs} ms`
          : `the guardrail could not be called (${String(error)})`,
      };
    } finally {
      this.inFlight -= 1;
    }
  }
}

async function readBounded(response: Response): Promise<string> {
  if (!response.body) return '';
  const chunks: Uint8Array[] = [];
  let length = 0;
  for await (const chunk of response.body) {
    length += chunk.length;
    if (length > MAX_ANSWER_BYTES) {
      await response.body.cancel().catch(() => undefined);
      return '';
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}
