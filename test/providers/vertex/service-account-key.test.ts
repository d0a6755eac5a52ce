import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import {
  describeServiceAccountKeyProblem,
  parseServiceAccountKey,
} from '../../../src/providers/vertex/service-account-key.js';
import { makeTestServiceAccount } from '../../fakes/make-test-service-account.js';

const account = makeTestServiceAccount({ tokenUri: 'https://oauth2.googleapis.com/token', projectId: 'p-1' });
const pem = account.keyFile.private_key ?? '';
/** A line from the middle of the PEM: secret material no message may hold. */
const secretLine = pem.split('\n')[5] ?? '';
const withFile = (changes: Record<string, unknown>) => JSON.stringify({ ...account.keyFile, ...changes });

describe('parseServiceAccountKey', () => {
  test('reads the members of a key file', () => {
    expect(parseServiceAccountKey(account.json)).toEqual({
      clientEmail: 'gateway-test@p-1.iam.gserviceaccount.com',
      privateKey: pem,
      projectId: 'p-1',
      privateKeyId: account.privateKeyId,
      tokenUri: 'https://oauth2.googleapis.com/token',
    });
    expect(describeServiceAccountKeyProblem(account.json)).toBeUndefined();
  });

  test('optional members may be missing', () => {
    const key = parseServiceAccountKey(
      withFile({ project_id: undefined, private_key_id: undefined, token_uri: undefined }),
    );
    expect(key).toMatchObject({ projectId: undefined, privateKeyId: undefined, tokenUri: undefined });
  });

  test('a private key whose newlines were escaped twice still reads', () => {
    const key = parseServiceAccountKey(withFile({ private_key: pem.replace(/\n/g, '\\n') }));
    expect(key.privateKey).toBe(pem);
  });
});

describe('describeServiceAccountKeyProblem names the fault, never the key', () => {
  const pkcs1 = generateKeyPairSync('rsa', { modulusLength: 1024 })
    .privateKey.export({ type: 'pkcs1', format: 'pem' })
    .toString();
  const ecKey = generateKeyPairSync('ec', { namedCurve: 'P-256' })
    .privateKey.export({ type: 'pkcs8', format: 'pem' })
    .toString();
  /** [case, key, the problem, whether parsing (which does not decode the key) finds it too] */
  const problems: [string, string, RegExp, boolean][] = [
    ['an API key', 'AIzaSyFakeKey', /not JSON/, true],
    ['the key file cut short', account.json.slice(0, 400), /not JSON/, true],
    ['a JSON array', '[]', /not a JSON object/, true],
    ['no type', withFile({ type: undefined }), /"type" is missing/, true],
    [
      'user credentials',
      withFile({ type: 'authorized_user' }),
      /"authorized_user", not "service_account"/,
      true,
    ],
    ['no client_email', withFile({ client_email: undefined }), /"client_email" is missing/, true],
    ['no private_key', withFile({ private_key: '' }), /"private_key" is missing/, true],
    [
      'a non-string private_key_id',
      withFile({ private_key_id: 7 }),
      /"private_key_id" is not a string/,
      true,
    ],
    ['a PKCS#1 key', withFile({ private_key: pkcs1 }), /PKCS#1/, true],
    ['an EC key', withFile({ private_key: ecKey }), /not an RSA key/, false],
    ['a damaged key', withFile({ private_key: pem.replace(secretLine, 'AAAA') }), /does not decode/, false],
  ];
  test.each(problems)('%s', (_case, key, expected, parsingFindsIt) => {
    const problem = describeServiceAccountKeyProblem(key);
    expect(problem).toMatch(expected);
    expect(problem).toMatch(/^Invalid service-account key: /);
    expect(problem).not.toContain(secretLine);
    expect(problem).not.toContain('AIzaSyFakeKey');
    if (parsingFindsIt) expect(() => parseServiceAccountKey(key)).toThrow(problem);
    else expect(() => parseServiceAccountKey(key)).not.toThrow();
  });
});
