import type { TokenHttpAnswer } from './post-token-request.js';
import { VertexTokenError } from './vertex-token-error.js';

export interface AccessTokenGrant {
  accessToken: string;
  expiresInSeconds: number;
}

const DETAIL_LIMIT = 300;

/**
 * Google's answer to the JWT bearer grant: `{access_token, expires_in, token_type: "Bearer"}`, or
 * an error status with `{error, error_description}`
 * (https://developers.google.com/identity/protocols/oauth2/service-account#handlingtheresponse).
 * Read leniently: other members are ignored. `subject` names the request in errors (token URL
 * and account), never the key.
 */
export function readTokenAnswer(answer: TokenHttpAnswer, subject: string): AccessTokenGrant {
  const json = parseObject(answer.body);
  if (answer.status !== 200) {
    const oauthError = typeof json?.error === 'string' ? json.error : undefined;
    const description = typeof json?.error_description === 'string' ? json.error_description : undefined;
    const detail =
      oauthError !== undefined
        ? `${oauthError}${description === undefined ? '' : `: ${description}`}`
        : summarize(answer.body);
    return fail(`${subject} failed: HTTP ${answer.status}${detail ? ` ${clip(detail)}` : ''}`, {
      status: answer.status,
      ...(oauthError !== undefined && { oauthError }),
    });
  }
  const accessToken = json?.access_token;
  const expiresIn = json?.expires_in;
  const tokenType = json?.token_type;
  if (typeof accessToken !== 'string' || accessToken === '')
    return fail(`${subject} answered 200 without an access_token`, { status: 200 });
  if (typeof expiresIn !== 'number' || !Number.isFinite(expiresIn) || expiresIn <= 0)
    return fail(`${subject} answered 200 without a positive expires_in`, { status: 200 });
  if (tokenType !== undefined && String(tokenType).toLowerCase() !== 'bearer')
    return fail(`${subject} answered a ${JSON.stringify(String(tokenType))} token, not Bearer`, {
      status: 200,
    });
  return { accessToken, expiresInSeconds: expiresIn };
}

function fail(message: string, options: { status: number; oauthError?: string }): never {
  throw new VertexTokenError(message, options);
}

function parseObject(text: string): Record<string, unknown> | undefined {
  try {
    const value = JSON.parse(text) as unknown;
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/** A non-JSON answer (an HTML error page from a proxy) in one short line. */
function summarize(body: string): string {
  return body
    .replace(/<[^>]*>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

function clip(text: string): string {
  return text.length > DETAIL_LIMIT ? `${text.slice(0, DETAIL_LIMIT)}...` : text;
}
