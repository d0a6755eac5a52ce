import { describe, expect, test } from 'vitest';
import { parseBedrockCredential } from '../../../src/providers/bedrock/bedrock-credential.js';

describe('parseBedrockCredential', () => {
  test('an access key pair, with and without a session token', () => {
    expect(parseBedrockCredential('AKIAIOSFODNN7EXAMPLE:wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY')).toEqual({
      kind: 'sigv4',
      accessKeyId: 'AKIAIOSFODNN7EXAMPLE',
      secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
    });
    expect(
      parseBedrockCredential(' ASIAIOSFODNN7EXAMPLE:se+cret/key:IQoJb3JpZ2luX2VjEFAKE/token== '),
    ).toEqual({
      kind: 'sigv4',
      accessKeyId: 'ASIAIOSFODNN7EXAMPLE',
      secretAccessKey: 'se+cret/key',
      sessionToken: 'IQoJb3JpZ2luX2VjEFAKE/token==',
    });
  });

  test('Bedrock API keys, long-term and short-term, are bearer tokens', () => {
    const longTerm = 'ABSKQmVkcm9ja0FQSUtleS1mYWtlLWF0LTEyMzQ1Njc4OTAxMjpmYWtlc2VjcmV0';
    expect(parseBedrockCredential(longTerm)).toEqual({ kind: 'api-key', token: longTerm });
    const shortTerm = 'bedrock-api-key-YmVkcm9jay5hbWF6b25hd3MuY29tLz9BY3Rpb249Q2FsbFdpdGhCZWFyZXJUb2tlbg==';
    expect(parseBedrockCredential(shortTerm)).toEqual({ kind: 'api-key', token: shortTerm });
  });

  test('anything short of the key pair form is taken as an API key', () => {
    for (const key of [
      'akiaiosfodnn7example:secret', // lower-case id
      'AKIASHORT:secret', // id under 16 characters
      'AKIAIOSFODNN7EXAMPLE:', // no secret
      'AKIAIOSFODNN7EXAMPLE:secret:', // empty session token
      'AKIAIOSFODNN7EXAMPLE:secret:token:extra', // four parts
      `${'A'.repeat(129)}:secret`, // id over 128 characters
    ])
      expect(parseBedrockCredential(key)).toEqual({ kind: 'api-key', token: key });
  });
});
