import { describe, expect, it } from 'vitest';
import { LossLog } from '../../../src/ir/loss.js';
import type { CanonicalReply } from '../../../src/ir/reply.js';
import { anthropicMessagesCodec as codec } from '../../../src/protocols/anthropic-messages/codec.js';
import { readJsonFixture } from './helpers.js';

const REQUESTS = ['request-claude-code.json', 'request-sampling.json', 'request-thinking.json'];
const REPLIES = ['reply-tool-use.json', 'reply-web-search.json'];

function decode(body: Record<string, unknown>) {
  return codec.decodeRequest(body, { losses: new LossLog() });
}

/** Usage audit data (`raw`) and the receive time are not part of the round trip. */
function comparable(reply: CanonicalReply) {
  return { ...reply, created: 0, usage: { ...reply.usage, raw: undefined } };
}

describe('round trips', () => {
  it.each(REQUESTS)('%s: decode(encode(decode(x))) equals decode(x), with no loss', (name) => {
    const decoded = decode(readJsonFixture(name));
    const losses = new LossLog();
    const encoded = codec.encodeRequest(decoded, { losses, defaultMaxTokens: 8192 });
    expect(decode(encoded)).toEqual(decoded);
    expect(losses.losses).toEqual([]);
  });

  it.each(REQUESTS)('%s: a same-protocol encode gives back the body the client sent', (name) => {
    const body = readJsonFixture(name);
    expect(codec.encodeRequest(decode(body), { losses: new LossLog(), defaultMaxTokens: 8192 })).toEqual(
      body,
    );
  });

  it.each(REPLIES)('%s: decodeReply(encodeReply(decodeReply(x))) equals decodeReply(x)', (name) => {
    const losses = new LossLog();
    const decoded = codec.decodeReply(readJsonFixture(name), losses);
    const again = codec.decodeReply(codec.encodeReply(decoded, losses), losses);
    expect(comparable(again)).toEqual(comparable(decoded));
    expect(losses.losses).toEqual([]);
  });
});
