import { describe, expect, it } from 'vitest';
import { bedrockConverseCodec } from '../../../src/protocols/bedrock-converse/codec.js';
import { protocolOfEndpoint, protocols } from '../../../src/protocols/registry.js';

describe('bedrock-converse in the protocol registry', () => {
  it('is the protocol of the bedrock-converse endpoint, with its codec', () => {
    expect(protocols['bedrock-converse'].codec).toBe(bedrockConverseCodec);
    expect(protocols['bedrock-converse'].upstreamEndpoint).toBe('bedrock-converse');
    expect(protocolOfEndpoint('bedrock-converse')).toBe('bedrock-converse');
  });

  it('has no passthrough: no client speaks it', () => {
    expect(Object.keys(protocols['bedrock-converse'])).toEqual(['codec', 'upstreamEndpoint']);
  });

  it('leaves the client protocols their passthrough', () => {
    for (const name of ['openai-chat', 'openai-responses', 'anthropic-messages', 'gemini'] as const)
      expect(protocols[name].passthrough.upstreamEndpoint).toBe(protocols[name].upstreamEndpoint);
  });
});
