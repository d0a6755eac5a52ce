import { request, type Dispatcher } from 'undici';
import { readBoundedBody } from '../read-bounded-body.js';

export interface TokenHttpRequest {
  url: string;
  /** `application/x-www-form-urlencoded`. */
  body: string;
  signal: AbortSignal;
  dispatcher?: Dispatcher;
}

export interface TokenHttpAnswer {
  status: number;
  /** The body as text, cut at a few kilobytes: a token answer is small. */
  body: string;
}

/** Sends one token request and reads its answer: the HTTP exchange only, with no judgement. */
export type FetchToken = (tokenRequest: TokenHttpRequest) => Promise<TokenHttpAnswer>;

const ANSWER_LIMIT_BYTES = 64 * 1024;

/** The token request over undici (https://developers.google.com/identity/protocols/oauth2/service-account#makingrequest). */
export const postTokenRequest: FetchToken = async (tokenRequest) => {
  const answer = await request(tokenRequest.url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
    body: tokenRequest.body,
    signal: tokenRequest.signal,
    ...(tokenRequest.dispatcher && { dispatcher: tokenRequest.dispatcher }),
  });
  const body = await readBoundedBody(answer.body, ANSWER_LIMIT_BYTES);
  return { status: answer.statusCode, body: body.toString('utf8') };
};
