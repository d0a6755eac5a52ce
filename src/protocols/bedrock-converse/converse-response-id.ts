import { createHash, randomUUID } from 'node:crypto';

/**
 * Converse names no response in its body or events (the request id is the `x-amzn-requestid`
 * header, which codecs do not see), so the gateway names it: a reply by a digest of its body, so the
 * same body always gets the same id; a stream, which has nothing to digest when it starts, at random.
 */
export function converseReplyId(body: unknown): string {
  const digest = createHash('sha256')
    .update(JSON.stringify(body) ?? '')
    .digest('hex');
  return `converse-${digest.slice(0, 24)}`;
}

export function converseStreamId(): string {
  return `converse-${randomUUID().replaceAll('-', '').slice(0, 24)}`;
}
