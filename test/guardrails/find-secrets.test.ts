import { describe, expect, it } from 'vitest';
import { findBearerTokens } from '../../src/guardrails/pii/find-bearer-tokens.js';
import { findHighEntropyTokens } from '../../src/guardrails/pii/find-high-entropy-tokens.js';
import { findJwts } from '../../src/guardrails/pii/find-jwts.js';
import { findPrefixedSecrets } from '../../src/guardrails/pii/find-prefixed-secrets.js';
import { wordCoverage } from '../../src/guardrails/pii/word-coverage.js';
import { seededRandom } from '../helpers/seeded-random.js';
import { spansOf } from './spans-of.js';

// Keys are put together at run time so that no complete credential-shaped literal sits in the source.
const key = (prefix: string, body: string) => prefix + body;
const ALPHANUMERIC = 'aB3dE5fG7hJ9kLmN2pQ4rS6tU8vWxYz0';

describe('findPrefixedSecrets', () => {
  const spans = (text: string) => spansOf(findPrefixedSecrets, text);

  it('finds each vendor shape', () => {
    const keys = [
      key('sk-', 'abcDEF1234567890ghijKLMN'),
      key('sk-proj-', ALPHANUMERIC + '_-' + ALPHANUMERIC),
      key('sk-ant-api03-', ALPHANUMERIC + ALPHANUMERIC + '-AA'),
      key('sk_live_', ALPHANUMERIC),
      key('rk_test_', ALPHANUMERIC),
      'AKIAIOSFODNN7EXAMPLE',
      key('ASIA', 'Y34FZKBOKMUTVV7A'),
      key('AIza', 'SyDaGmWKa4JsXZ-HjGw7ISLn_3namBGewQe'),
      key('ya29.', 'a0AfH6SMBx' + ALPHANUMERIC),
      key('ghp_', ALPHANUMERIC + 'abcd'),
      key('gho_', ALPHANUMERIC + 'abcd'),
      key('github_pat_', '11ABCDEFG0123456789_' + ALPHANUMERIC),
      key('xoxb-', '123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx'),
      key('xoxp-', '123456789012-123456789012-1234567890123-abcdef0123456789abcdef0123456789'),
      key('hf_', ALPHANUMERIC + 'abcd'),
      key('gsk_', ALPHANUMERIC + ALPHANUMERIC),
      key('xai-', ALPHANUMERIC + ALPHANUMERIC),
      key('pplx-', ALPHANUMERIC + ALPHANUMERIC),
    ];
    for (const secret of keys) expect(spans(`key: ${secret}, then more`), secret).toEqual([secret]);
    expect(spans(`OPENAI_API_KEY="${keys[0]}"`)).toEqual([keys[0]]);
  });

  it('leaves words and identifiers that merely share a prefix', () => {
    const ordinary = [
      'sk-learn-is-not-how-scikit-learn-is-spelled',
      'task-1234',
      'AKIA is the prefix of AWS access key ids',
      'AKIAIOSFODNN7EXAMPLEX',
      'mask-ABCDEFGHIJ1234567890abc',
      'ghp_tooShort123',
      'xoxb-short',
    ];
    for (const text of ordinary) expect(spans(text), text).toEqual([]);
  });
});

describe('findBearerTokens', () => {
  const spans = (text: string) => spansOf(findBearerTokens, text);

  it('redacts the token after the scheme, not the scheme', () => {
    expect(spans('Authorization: Bearer abc123def456')).toEqual(['abc123def456']);
    expect(spans('-H "authorization: bearer mF_9.B5f-4.1JqM"')).toEqual(['mF_9.B5f-4.1JqM']);
    expect(spans('BEARER dGhpcyBpcyBhIHRva2Vu==')).toEqual(['dGhpcyBpcyBhIHRva2Vu==']);
    expect(spans('Bearer abcdefghijklmnopqrstuvwxyz')).toEqual(['abcdefghijklmnopqrstuvwxyz']);
  });

  it('leaves prose and placeholders', () => {
    for (const text of [
      'Bearer authentication',
      'use Bearer tokens',
      'Bearer YOUR_API_KEY',
      'Bearer <token>',
      'Bearer $OPENAI_API_KEY',
      'Bearer ${TOKEN}',
      'Forebearer abc123def456',
    ])
      expect(spans(text), text).toEqual([]);
  });
});

describe('findJwts', () => {
  const spans = (text: string) => spansOf(findJwts, text);
  const jwt = [
    'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9',
    'eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ',
    'SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c',
  ].join('.');

  it('finds signed and unsecured tokens', () => {
    expect(spans(`token=${jwt}; path=/`)).toEqual([jwt]);
    const unsecured = jwt.slice(0, jwt.lastIndexOf('.') + 1);
    expect(spans(`"${unsecured}"`)).toEqual([unsecured]);
  });

  it('leaves other dotted words', () => {
    expect(spans('eyJ alone, eyJhbGciOi.x.y, file.eyJhbG.json')).toEqual([]);
  });
});

describe('findHighEntropyTokens', () => {
  const spans = (text: string) => spansOf(findHighEntropyTokens, text);

  it('finds random base64, base64url and hex keys of 32 characters or more', () => {
    const secrets = [
      'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
      'Zm9vYmFyYmF6cXV4MTIzNDU2Nzg5MGFiY2RlZmdo==',
      '8fK2xQ9vLm3NpR7sT1wY4zB6cD0eGhJk',
      'd41d8cd98f00b204e9800998ecf8427e',
      'E3B0C44298FC1C149AFBF4C8996FB92427AE41E4649B934CA495991B7852B855',
    ];
    for (const secret of secrets) expect(spans(`value ${secret} end`), secret).toEqual([secret]);
    expect(spans('AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY')).toEqual([
      'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
    ]);
  });

  it('finds almost every random key, whatever its alphabet', () => {
    const random = seededRandom(7);
    const alphabets = [
      'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789',
      'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/',
      'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_',
    ];
    let missed = 0;
    const tries = 3000;
    for (let index = 0; index < tries; index++) {
      const alphabet = alphabets[index % alphabets.length]!;
      let token = '';
      while (token.length < 48) token += alphabet[Math.floor(random() * alphabet.length)];
      if (spans(`k ${token} k`).length === 0) missed++;
    }
    expect(missed / tries).toBeLessThan(0.02);
  });

  it('keeps UUIDs, git commit ids, digests with their label, words and identifiers', () => {
    const ordinary = [
      '123e4567-e89b-12d3-a456-426614174000',
      '123E4567-E89B-12D3-A456-426614174000',
      'commit 1a83ad6a693f851199608ae957ac5d4f76871485',
      'sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
      '"integrity": "sha512-Zm9vYmFyYmF6cXV4MTIzNDU2Nzg5MGFiY2RlZmdoaWprbG1ub3BxcnN0dXZ3eHl6MDEyMzQ1Njc4OTAxMjM0NTY3OA=="',
      'Pneumonoultramicroscopicsilicovolcanoconiosis',
      'supercalifragilisticexpialidocious_and_more_words_2024',
      'BetaClearToolUses20250919EditResponse',
      'getUserAccountSettings2FromDatabaseAndCache',
      'Type_predicate_0_is_not_assignable_to_1',
      'SSL_get_ex_data_X509_STORE_CTX_idx',
      'https://github.com/aws/aws-sdk-js-v3/blob/bee66fbd2a519a16b57c787b2689af857af720af/clients/client-bedrock',
      'org/TR/2011/REC-css3-selectors-20110929/',
      'playwright-cli/page-2026-02-14T19-22-42-679Z',
      'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa1',
      'shortKey123',
    ];
    for (const text of ordinary) expect(spans(text), text).toEqual([]);
  });

  it('judges a path segment by segment', () => {
    expect(spans('see example.com/files/d/1pdEefRG6r9fZy61WHGz0TKSt8cO4ISWqlpBN5KntIvQ/edit')).toEqual([
      '1pdEefRG6r9fZy61WHGz0TKSt8cO4ISWqlpBN5KntIvQ',
    ]);
  });

  it('leaves runs longer than a key could be: data, not credentials', () => {
    const data = 'iVBORw0KGgoAAAANSUhEUgAAABgAAAAYCAYAAADgdz34'.repeat(30);
    expect(spans(`data:image/png;base64,${data}`)).toEqual([]);
  });
});

describe('wordCoverage', () => {
  it('scores identifiers high and random strings low', () => {
    expect(wordCoverage('BetaClearToolUses20250919EditResponse')).toBeGreaterThan(0.7);
    expect(wordCoverage('Type_predicate_0_is_not_assignable_to_1')).toBeGreaterThan(0.9);
    expect(wordCoverage('8fK2xQ9vLm3NpR7sT1wY4zB6cD0eGhJk')).toBeLessThan(0.3);
  });
});
