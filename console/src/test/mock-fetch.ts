import { vi } from 'vitest';

/** A reply of the fake gateway: a status and a JSON body. */
export interface FakeReply {
  status: number;
  body: unknown;
}

/**
 * Replaces `fetch` with a fake gateway that answers each call with `reply(url, init)`; the calls
 * are kept on the returned mock. Undo with `vi.unstubAllGlobals()`.
 */
export function mockFetch(reply: (url: string, init: RequestInit | undefined) => FakeReply) {
  const fetchMock = vi.fn(async (url: string, init?: RequestInit) => {
    const { status, body } = reply(url, init);
    return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}
