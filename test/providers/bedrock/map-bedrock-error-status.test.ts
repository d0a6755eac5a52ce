import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, test } from 'vitest';
import { bedrockExceptionStatus } from '../../../src/providers/bedrock/map-bedrock-error-status.js';

describe('bedrockExceptionStatus', () => {
  test('statuses of the InvokeModel and Converse error tables, by either spelling', () => {
    expect(bedrockExceptionStatus('ThrottlingException')).toBe(429);
    expect(bedrockExceptionStatus('throttlingException')).toBe(429);
    expect(bedrockExceptionStatus('ValidationException')).toBe(400);
    expect(bedrockExceptionStatus('AccessDeniedException')).toBe(403);
    expect(bedrockExceptionStatus('ResourceNotFoundException')).toBe(404);
    expect(bedrockExceptionStatus('modelTimeoutException')).toBe(408);
    expect(bedrockExceptionStatus('ModelErrorException')).toBe(424);
    expect(bedrockExceptionStatus('modelStreamErrorException')).toBe(424);
    expect(bedrockExceptionStatus('ModelNotReadyException')).toBe(429);
    expect(bedrockExceptionStatus('ServiceQuotaExceededException')).toBe(400);
    expect(bedrockExceptionStatus('internalServerException')).toBe(500);
    expect(bedrockExceptionStatus('serviceUnavailableException')).toBe(503);
  });

  test('an `x-amzn-errortype` value with its namespace; front-door and unknown exceptions', () => {
    expect(
      bedrockExceptionStatus(
        'InvalidSignatureException:http://internal.amazon.com/coral/com.amazon.coral.service/',
      ),
    ).toBe(403);
    expect(bedrockExceptionStatus('UnrecognizedClientException')).toBe(403);
    expect(bedrockExceptionStatus('SomethingNewException')).toBe(500);
  });

  test('agrees with every @httpError of the Smithy model shipped in @aws-sdk/client-bedrock-runtime', () => {
    const require = createRequire(import.meta.url);
    const source = readFileSync(require.resolve('@aws-sdk/client-bedrock-runtime'), 'utf8');
    const declared = [
      ...source.matchAll(/var (\w+Exception)\$ = \[-3, n0, \w+,\s*\{ \[_e\]: \w+, \[_hE\]: (\d+) \}/g),
    ];
    expect(declared.length).toBeGreaterThanOrEqual(12);
    for (const [, name = '', status] of declared)
      expect([name, bedrockExceptionStatus(name)]).toEqual([name, Number(status)]);
  });
});
