import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { isWebSocketHandshake, readUpgradeRequest } from '../../src/http/realtime/upgrade-request.js';

const handshake = (headers: Record<string, string>, url = '/v1/realtime?model=gpt-realtime') =>
  ({
    method: 'GET',
    url,
    headers: {
      upgrade: 'websocket',
      'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==',
      'sec-websocket-version': '13',
      ...headers,
    },
  }) as unknown as IncomingMessage;

describe('readUpgradeRequest', () => {
  it('the key from Authorization, with or without Bearer, before any subprotocol', () => {
    expect(readUpgradeRequest(handshake({ authorization: 'Bearer sk-a' })).rawKey).toBe('sk-a');
    expect(readUpgradeRequest(handshake({ authorization: 'sk-b' })).rawKey).toBe('sk-b');
    expect(
      readUpgradeRequest(
        handshake({ authorization: 'Bearer sk-a', 'sec-websocket-protocol': 'openai-insecure-api-key.sk-c' }),
      ).rawKey,
    ).toBe('sk-a');
  });

  it("a browser's key from its subprotocol; no key when neither carries one", () => {
    const read = readUpgradeRequest(
      handshake({
        'sec-websocket-protocol': 'realtime, openai-insecure-api-key.sk-d, openai-beta.realtime-v1',
      }),
    );
    expect(read.rawKey).toBe('sk-d');
    expect(readUpgradeRequest(handshake({ 'sec-websocket-protocol': 'realtime' })).rawKey).toBeUndefined();
    expect(readUpgradeRequest(handshake({ 'x-api-key': 'sk-e' })).rawKey).toBeUndefined();
  });

  it('the path, the model of the query, and OpenAI-Beta for the upstream', () => {
    const read = readUpgradeRequest(
      handshake({ 'openai-beta': 'realtime=v1', cookie: 'secret' }, '/v1/realtime?model=a%20b'),
    );
    expect(read).toMatchObject({ method: 'GET', path: '/v1/realtime', model: 'a b' });
    expect(read.forwardedHeaders).toEqual({ 'openai-beta': 'realtime=v1' });
    expect(readUpgradeRequest(handshake({}, '/v1/realtime')).model).toBeUndefined();
  });
});

describe('isWebSocketHandshake', () => {
  it('takes an RFC 6455 opening handshake, and nothing else', () => {
    expect(isWebSocketHandshake(handshake({}))).toBe(true);
    expect(isWebSocketHandshake(handshake({ upgrade: 'h2c' }))).toBe(false);
    expect(isWebSocketHandshake(handshake({ 'sec-websocket-key': 'short' }))).toBe(false);
    expect(isWebSocketHandshake(handshake({ 'sec-websocket-version': '12' }))).toBe(false);
    expect(isWebSocketHandshake({ ...handshake({}), method: 'POST' } as IncomingMessage)).toBe(false);
  });
});
