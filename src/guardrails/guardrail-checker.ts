import { GatewayError } from '../errors/gateway-error.js';
import type { Logger } from '../observability/logger.js';
import type { ClientProtocolName } from '../protocols/protocol-codec.js';
import type { NewUsageLog } from '../store/usage-logs-repository.js';
import type { ActiveGuardrail, GuardrailSet } from './guardrail-set.js';
import type { GuardrailQuestion, GuardrailWebhooks } from './guardrail-webhook.js';
import { requestTexts } from './request-texts.js';

/** How one guardrail judged one request: let through, matched (regex or `allow: false`), or failed (webhook). */
export type GuardrailVerdict = 'pass' | 'match' | 'error';

export interface CheckedRequest {
  requestId: string;
  protocol: ClientProtocolName;
  body: Record<string, unknown>;
  group: string;
  /** The public model that would serve it, and the one the client named. */
  model: string;
  requestedModel: string;
  endpoint: string;
  stream: boolean;
  userId: number;
  keyId: number;
  /** `performance.now()` when the request arrived. */
  startedAt: number;
}

/**
 * Guardrails on the request path (admin-api section 12), before anything is charged: every
 * guardrail of the key's group reads the request's texts, the regular expressions at once and the
 * webhooks together. The first guardrail, in creation order, that matches with `action: block`
 * (or fails closed) refuses the request with 400 `guardrail_blocked`, leaving a usage record with
 * that error; `action: log` lets it through with a warning. A request whose group has none pays
 * one lookup.
 */
export class GuardrailChecker {
  constructor(
    private readonly options: {
      set: GuardrailSet;
      webhooks: GuardrailWebhooks;
      logger: Logger;
      /** Stores the usage record of a blocked request. */
      recordBlock: (record: NewUsageLog) => Promise<void>;
      onVerdict?: (guardrail: string, verdict: GuardrailVerdict) => void;
    },
  ) {}

  applicable(group: string): readonly ActiveGuardrail[] {
    return this.options.set.applicable(group);
  }

  /** Throws the client's 400 when a guardrail blocks the request. */
  async check(guardrails: readonly ActiveGuardrail[], request: CheckedRequest): Promise<void> {
    const texts = requestTexts(request.protocol, request.body);
    const question: GuardrailQuestion = {
      model: request.requestedModel,
      endpoint: request.endpoint,
      user_id: request.userId,
      key_id: request.keyId,
      texts,
    };
    const verdicts = await Promise.all(guardrails.map((guardrail) => this.judge(guardrail, texts, question)));
    for (const [index, guardrail] of guardrails.entries()) {
      const { verdict, detail } = verdicts[index]!;
      this.options.onVerdict?.(guardrail.name, verdict);
      const blocks = verdict === 'match' || (verdict === 'error' && guardrail.fail === 'closed');
      if (verdict !== 'pass')
        this.options.logger.warn(
          { requestId: request.requestId, guardrail: guardrail.name, verdict, detail },
          blocks && guardrail.action === 'block'
            ? 'guardrail blocked a request'
            : 'guardrail let a request through',
        );
      if (blocks && guardrail.action === 'block') throw await this.blocked(guardrail, request);
    }
  }

  private async judge(
    guardrail: ActiveGuardrail,
    texts: readonly string[],
    question: GuardrailQuestion,
  ): Promise<{ verdict: GuardrailVerdict; detail: string | undefined }> {
    if (guardrail.regex) {
      const { regex } = guardrail;
      return { verdict: texts.some((text) => regex.test(text)) ? 'match' : 'pass', detail: undefined };
    }
    if (guardrail.url === null || texts.length === 0) return { verdict: 'pass', detail: undefined };
    const answer = await this.options.webhooks.ask(guardrail.url, question, guardrail.timeoutMs);
    if ('failed' in answer) return { verdict: 'error', detail: answer.failed };
    return { verdict: answer.allow ? 'pass' : 'match', detail: answer.reason };
  }

  private async blocked(guardrail: ActiveGuardrail, request: CheckedRequest): Promise<GatewayError> {
    const error = new GatewayError('guardrail_blocked', { name: guardrail.name });
    await this.options
      .recordBlock({
        requestId: request.requestId,
        createdAt: Math.floor(Date.now() / 1000),
        userId: request.userId,
        keyId: request.keyId,
        channelId: null,
        model: request.model,
        requestedModel: request.requestedModel === request.model ? null : request.requestedModel,
        endpoint: request.endpoint,
        stream: request.stream,
        statusCode: error.status,
        promptTokens: 0,
        completionTokens: 0,
        cachedTokens: 0,
        cacheWriteTokens: 0,
        reasoningTokens: 0,
        cost: 0,
        latencyMs: Math.round(performance.now() - request.startedAt),
        firstByteMs: null,
        error: error.message,
      })
      .catch((caught: unknown) =>
        this.options.logger.error(
          { err: caught, requestId: request.requestId },
          'could not record a blocked request',
        ),
      );
    return error;
  }
}
