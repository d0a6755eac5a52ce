import type { RequestObservation } from '../../relay/relay-observer.js';

/** An observation that also tells `onCharged` when the request's charge has landed. */
export function observeCharges(observation: RequestObservation, onCharged: () => void): RequestObservation {
  return {
    rateLimited: (limit) => observation.rateLimited(limit),
    attemptStarted: (attempt) => observation.attemptStarted(attempt),
    streamOpened: () => observation.streamOpened(),
    finished: (outcome) => observation.finished(outcome),
    billed(outcome) {
      observation.billed(outcome);
      onCharged();
    },
  };
}
