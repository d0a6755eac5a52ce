import type { StreamFraming } from '../providers/provider-descriptor.js';
import { CUT_MID_EVENT_DETAIL } from '../protocols/sse/stream-break.js';
import type { StreamFailure, StreamTransform } from './transforms.js';

/**
 * A stream transform fed through the upstream's own framing (Bedrock's AWS event stream), which
 * turns its frames into the server-sent events every protocol reader takes. A frame the framing
 * cannot read, or a stream that ends inside a frame, breaks the stream like a bad SSE frame.
 */
export function framedStream(transform: StreamTransform, framing: StreamFraming): StreamTransform {
  let failure: StreamFailure | undefined;
  return {
    push(chunk, sendFirst) {
      if (failure) return undefined;
      let events: string;
      try {
        events = framing.push(chunk);
      } catch (error) {
        failure = { kind: 'broken', detail: error instanceof Error ? error.message : String(error) };
        return undefined;
      }
      return events === '' ? undefined : transform.push(Buffer.from(events), sendFirst);
    },
    end() {
      if (failure) return undefined;
      const { incomplete } = framing.end();
      if (incomplete && !transform.failure()) failure = { kind: 'broken', detail: CUT_MID_EVENT_DETAIL };
      return failure ? undefined : transform.end();
    },
    failure: () => failure ?? transform.failure(),
    usage: () => transform.usage(),
    producedText: () => transform.producedText(),
    facts: () => transform.facts?.(),
    errorEvent: (error) => transform.errorEvent(error),
  };
}
