import type { FakeReply, RecordedRequest, ReplyContent, RequestProblem } from './fake-upstream.js';

/** One endpoint of a fake vendor: what the real one refuses, and what it answers. */
export interface FakeEndpoint {
  validate(body: unknown, request: RecordedRequest): RequestProblem | undefined;
  reply(request: RecordedRequest, content: ReplyContent, nextId: (prefix: string) => string): FakeReply;
}
