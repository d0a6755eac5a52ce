import type { JsonDocument } from '../protocols/json-document.js';
import type { TimeoutLimit } from '../errors/catalogue.js';
import type { FailureKind } from '../routing/policy/failure-kind.js';
import type { RoutableChannel } from '../routing/routing-catalog.js';
import type { UpstreamBody, UpstreamHead } from './upstream-call.js';
import type { UpstreamPlan } from './plan.js';
import type { StreamOpening } from './stream-opening.js';
import type { StreamTransform } from './transforms.js';

/** How one upstream attempt ended, as the relay reads it. */
export type UpstreamOutcome =
  | {
      kind: 'answered';
      channel: RoutableChannel;
      plan: UpstreamPlan;
      reply: UpstreamHead;
      /** The whole reply, read within `upstream_timeout_s`, and the same as JSON. */
      body: Buffer;
      document: JsonDocument;
    }
  | {
      kind: 'streaming';
      channel: RoutableChannel;
      plan: UpstreamPlan;
      reply: UpstreamHead;
      /** The first body chunk, already read so that failover stays possible until then... */
      firstChunk: Buffer | undefined;
      /**
       * ...or, when another candidate could still take the request, the stream read up to its first
       * content through `transform` (`readStreamOpening`); `firstChunk` is then part of it.
       */
      opening: StreamOpening | undefined;
      /** The rest of the body, paused. */
      body: UpstreamBody;
      /** The plan's stream transform, fed through the upstream's framing where it has one. */
      transform: StreamTransform;
    }
  | {
      kind: 'upstream-error';
      channel: RoutableChannel;
      reply: UpstreamHead;
      /** The reply's body, read up to `MAX_ERROR_BODY_BYTES`. */
      body: Buffer;
      /** What the failure is, classified once here for health and fallback (`classifyFailure`). */
      failure: FailureKind;
    }
  /** A limit the gateway enforces ran out: its own error, 504 `upstream_timeout`. */
  | { kind: 'timeout'; channel: RoutableChannel; limit: TimeoutLimit; seconds: number }
  | { kind: 'unreachable'; channel: RoutableChannel | undefined; detail: string }
  /** The channel cannot take this endpoint: nothing was sent. */
  | { kind: 'unserved'; channel: RoutableChannel };
