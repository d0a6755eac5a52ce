import {
  defaultTextMapGetter,
  defaultTextMapSetter,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type Context,
  type Span,
  type TextMapPropagator,
  type Tracer,
} from '@opentelemetry/api';
import {
  ATTR_ERROR_TYPE,
  ATTR_HTTP_REQUEST_METHOD,
  ATTR_HTTP_RESPONSE_STATUS_CODE,
} from '@opentelemetry/semantic-conventions';
import { NANO_PER_USD } from '../../billing/money.js';
import type {
  AttemptObservation,
  AttemptResult,
  ObservedAttempt,
  ObservedRequest,
  RelayObserver,
  RequestObservation,
  RequestOutcome,
} from '../../relay/relay-observer.js';
import * as attributes from './gen-ai-attributes.js';

/**
 * One span per relayed request (kind server), continued from the client's `traceparent`, and one
 * child span per upstream call (kind client), whose trace context travels upstream in the call's
 * headers. A stream's request span ends when the stream does. Spans carry counts, models, ids and
 * outcomes; never prompt or completion text, nor error messages (an upstream's may quote the prompt).
 */
export class TracingObserver implements RelayObserver {
  constructor(
    private readonly tracer: Tracer,
    private readonly propagator: TextMapPropagator,
  ) {}

  requestStarted(request: ObservedRequest): RequestObservation {
    const parent = this.propagator.extract(ROOT_CONTEXT, request.headers, defaultTextMapGetter);
    const operation = attributes.operationName(request.endpoint);
    const span = this.tracer.startSpan(
      operation,
      {
        kind: SpanKind.SERVER,
        startTime: request.startedAt,
        attributes: {
          [attributes.GEN_AI_OPERATION_NAME]: operation,
          [attributes.GATEWAY_REQUEST_ID]: request.requestId,
          [attributes.GATEWAY_ENDPOINT]: request.endpoint,
          [ATTR_HTTP_REQUEST_METHOD]: 'POST',
        },
      },
      parent,
    );
    return new TracedRequest({
      tracer: this.tracer,
      propagator: this.propagator,
      span,
      context: trace.setSpan(parent, span),
      operation,
    });
  }
}

interface TracedRequestParts {
  tracer: Tracer;
  propagator: TextMapPropagator;
  span: Span;
  /** The parent's context with the request span in it: attempts are its children. */
  context: Context;
  operation: string;
}

class TracedRequest implements RequestObservation {
  private channelType: string | undefined;

  constructor(private readonly parts: TracedRequestParts) {}

  rateLimited(limit: 'rpm' | 'tpm'): void {
    this.parts.span.addEvent('rate_limited', { 'gateway.rate_limit': limit });
  }

  attemptStarted(attempt: ObservedAttempt): AttemptObservation {
    const { tracer, propagator, context, operation } = this.parts;
    this.channelType = attempt.channelType;
    const provider = attributes.providerName(attempt.channelType);
    const span = tracer.startSpan(
      `${operation} ${attempt.upstreamModel}`,
      {
        kind: SpanKind.CLIENT,
        attributes: {
          [attributes.GEN_AI_OPERATION_NAME]: operation,
          [attributes.GEN_AI_PROVIDER_NAME]: provider,
          [attributes.GEN_AI_SYSTEM]: provider,
          [attributes.GEN_AI_REQUEST_MODEL]: attempt.upstreamModel,
          [attributes.GATEWAY_CHANNEL_ID]: attempt.channelId,
          [attributes.GATEWAY_CHANNEL_TYPE]: attempt.channelType,
          [ATTR_HTTP_REQUEST_METHOD]: 'POST',
        },
      },
      context,
    );
    const headers: Record<string, string> = {};
    propagator.inject(trace.setSpan(context, span), headers, defaultTextMapSetter);
    return new TracedAttempt(span, headers);
  }

  streamOpened(): void {
    this.parts.span.setAttribute(attributes.GEN_AI_REQUEST_STREAM, true);
  }

  finished(outcome: RequestOutcome): void {
    const { span, operation } = this.parts;
    if (outcome.model !== undefined) {
      span.updateName(`${operation} ${outcome.model}`);
      span.setAttribute(attributes.GEN_AI_REQUEST_MODEL, outcome.model);
    }
    if (outcome.requestedModel !== undefined)
      span.setAttribute(attributes.GATEWAY_REQUESTED_MODEL, outcome.requestedModel);
    if (this.channelType !== undefined && outcome.channelId !== null) {
      const provider = attributes.providerName(this.channelType);
      span.setAttribute(attributes.GEN_AI_PROVIDER_NAME, provider);
      span.setAttribute(attributes.GEN_AI_SYSTEM, provider);
      span.setAttribute(attributes.GATEWAY_CHANNEL_ID, outcome.channelId);
    }
    if (outcome.userId !== undefined) span.setAttribute(attributes.GATEWAY_USER_ID, outcome.userId);
    if (outcome.keyId !== undefined) span.setAttribute(attributes.GATEWAY_KEY_ID, outcome.keyId);
    span.setAttribute(attributes.GEN_AI_REQUEST_STREAM, outcome.stream);
    span.setAttribute(ATTR_HTTP_RESPONSE_STATUS_CODE, outcome.statusCode);
    const { tokens } = outcome;
    const reply = outcome.describeReply?.();
    if (reply?.model !== undefined) span.setAttribute(attributes.GEN_AI_RESPONSE_MODEL, reply.model);
    if (reply?.finishReasons !== undefined && reply.finishReasons.length > 0)
      span.setAttribute(attributes.GEN_AI_RESPONSE_FINISH_REASONS, [...reply.finishReasons]);
    if (tokens) {
      span.setAttributes({
        [attributes.GEN_AI_USAGE_INPUT_TOKENS]: tokens.input,
        [attributes.GEN_AI_USAGE_OUTPUT_TOKENS]: tokens.output,
        [attributes.GEN_AI_USAGE_CACHE_READ_INPUT_TOKENS]: tokens.cached,
        [attributes.GEN_AI_USAGE_CACHE_CREATION_INPUT_TOKENS]: tokens.cacheWrite,
        [attributes.GEN_AI_USAGE_REASONING_OUTPUT_TOKENS]: tokens.reasoning,
        [attributes.GATEWAY_COST_USD]: outcome.cost / NANO_PER_USD,
      });
    }
    if (outcome.statusCode >= 500) {
      span.setAttribute(ATTR_ERROR_TYPE, String(outcome.statusCode));
      span.setStatus({ code: SpanStatusCode.ERROR });
    } else if (outcome.statusCode < 400 && outcome.error !== null) {
      // A stream that ended with an error event after its 200.
      span.setAttribute(ATTR_ERROR_TYPE, 'stream_error');
      span.setStatus({ code: SpanStatusCode.ERROR });
    }
    span.end();
  }

  billed(): void {
    // The span ended with the request; what was billed is on it already.
  }
}

class TracedAttempt implements AttemptObservation {
  private readonly sentAt = performance.now();

  constructor(
    private readonly span: Span,
    readonly headers: Readonly<Record<string, string>>,
  ) {}

  firstByte(): void {
    this.span.setAttribute(
      attributes.GEN_AI_RESPONSE_TIME_TO_FIRST_CHUNK,
      (performance.now() - this.sentAt) / 1000,
    );
  }

  finished(result: AttemptResult): void {
    const { span } = this;
    span.setAttribute(attributes.GATEWAY_ATTEMPT_OUTCOME, result.outcome);
    if (result.statusCode !== undefined) span.setAttribute(ATTR_HTTP_RESPONSE_STATUS_CODE, result.statusCode);
    if (result.outcome !== 'success') {
      span.setAttribute(
        ATTR_ERROR_TYPE,
        result.statusCode === undefined ? result.outcome : String(result.statusCode),
      );
      span.setStatus({ code: SpanStatusCode.ERROR });
    }
    span.end();
  }
}
