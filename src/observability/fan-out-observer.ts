import {
  unobserved,
  type AttemptObservation,
  type AttemptResult,
  type ObservedAttempt,
  type ObservedRequest,
  type RelayObserver,
  type RequestObservation,
  type RequestOutcome,
} from '../relay/relay-observer.js';

/** One observer for the relay that tells each of several (metrics, tracing); itself when there is one. */
export function fanOutObserver(observers: readonly RelayObserver[]): RelayObserver {
  if (observers.length === 0) return unobserved;
  if (observers.length === 1) return observers[0]!;
  return {
    requestStarted: (request: ObservedRequest) =>
      new FanOutRequest(observers.map((observer) => observer.requestStarted(request))),
  };
}

class FanOutRequest implements RequestObservation {
  constructor(private readonly each: readonly RequestObservation[]) {}

  rateLimited(limit: 'rpm' | 'tpm'): void {
    for (const observation of this.each) observation.rateLimited(limit);
  }

  attemptStarted(attempt: ObservedAttempt): AttemptObservation {
    return new FanOutAttempt(this.each.map((observation) => observation.attemptStarted(attempt)));
  }

  streamOpened(): void {
    for (const observation of this.each) observation.streamOpened();
  }

  finished(outcome: RequestOutcome): void {
    for (const observation of this.each) observation.finished(outcome);
  }

  billed(outcome: RequestOutcome): void {
    for (const observation of this.each) observation.billed(outcome);
  }
}

class FanOutAttempt implements AttemptObservation {
  readonly headers: Readonly<Record<string, string>> | undefined;

  constructor(private readonly each: readonly AttemptObservation[]) {
    let headers: Record<string, string> | undefined;
    for (const observation of each) {
      if (observation.headers) headers = { ...headers, ...observation.headers };
    }
    this.headers = headers;
  }

  firstByte(): void {
    for (const observation of this.each) observation.firstByte();
  }

  finished(result: AttemptResult): void {
    for (const observation of this.each) observation.finished(result);
  }
}
