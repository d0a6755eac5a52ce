import { createPrivateKey } from 'node:crypto';

/**
 * The members of a Google service-account JSON key file that the JWT bearer grant needs
 * (https://developers.google.com/identity/protocols/oauth2/service-account#httprest).
 */
export interface ServiceAccountKey {
  clientEmail: string;
  /** PEM, PKCS#8 (`-----BEGIN PRIVATE KEY-----`). */
  privateKey: string;
  projectId: string | undefined;
  privateKeyId: string | undefined;
  tokenUri: string | undefined;
}

const ADVICE = 'a Vertex channel key is a whole service-account JSON key file, as one string';

/**
 * Why `key` is not a usable service-account key, or undefined when it is: the JSON, the members,
 * and that the private key decodes as an RSA key in PKCS#8 PEM (about a millisecond: for the
 * management API, not for every request). The answer never quotes the key: it names the member
 * at fault.
 */
export function describeServiceAccountKeyProblem(key: string): string | undefined {
  const read = readServiceAccountKey(key, { decodeKey: true });
  return 'problem' in read ? read.problem : undefined;
}

/**
 * The key's members, cheaply (the private key's PEM is not decoded here; signing does that); throws
 * an Error naming the missing or wrong member, never quoting the key.
 */
export function parseServiceAccountKey(key: string): ServiceAccountKey {
  const read = readServiceAccountKey(key, { decodeKey: false });
  if ('problem' in read) throw new Error(read.problem);
  return read.key;
}

function readServiceAccountKey(
  text: string,
  options: { decodeKey: boolean },
): { key: ServiceAccountKey } | { problem: string } {
  const fail = (problem: string) => ({ problem: `Invalid service-account key: ${problem}` });
  let json: unknown;
  try {
    json = JSON.parse(text) as unknown;
  } catch {
    // The parser's own message quotes the input, so it is not passed on.
    return fail(`it is not JSON (${ADVICE})`);
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json))
    return fail(`it is not a JSON object (${ADVICE})`);
  const file = json as Record<string, unknown>;
  if (file.type === undefined) return fail(`"type" is missing (${ADVICE})`);
  if (file.type !== 'service_account')
    return fail(`"type" is ${JSON.stringify(String(file.type))}, not "service_account" (${ADVICE})`);
  if (typeof file.client_email !== 'string' || file.client_email === '')
    return fail('"client_email" is missing');
  if (typeof file.private_key !== 'string' || file.private_key === '')
    return fail('"private_key" is missing');
  const optional = ['private_key_id', 'project_id', 'token_uri'].find(
    (member) => file[member] !== undefined && typeof file[member] !== 'string',
  );
  if (optional) return fail(`"${optional}" is not a string`);
  const privateKey = normalizePem(file.private_key);
  const keyProblem = checkPrivateKey(privateKey, options);
  if (keyProblem) return fail(keyProblem);
  return {
    key: {
      clientEmail: file.client_email,
      privateKey,
      projectId: optionalString(file.project_id),
      privateKeyId: optionalString(file.private_key_id),
      tokenUri: optionalString(file.token_uri),
    },
  };
}

/** A key pasted through a shell or an environment variable often has `\n` as two characters. */
function normalizePem(pem: string): string {
  return pem.includes('\n') ? pem : pem.replace(/\\n/g, '\n');
}

function checkPrivateKey(pem: string, options: { decodeKey: boolean }): string | undefined {
  if (!pem.includes('-----BEGIN PRIVATE KEY-----'))
    return pem.includes('-----BEGIN RSA PRIVATE KEY-----')
      ? '"private_key" is PKCS#1 (BEGIN RSA PRIVATE KEY); Google key files hold PKCS#8 (BEGIN PRIVATE KEY)'
      : '"private_key" is not a PEM private key (BEGIN PRIVATE KEY)';
  if (!options.decodeKey) return undefined;
  try {
    const key = createPrivateKey({ key: pem, format: 'pem' });
    if (key.asymmetricKeyType !== 'rsa') return '"private_key" is not an RSA key (RS256 needs one)';
  } catch {
    return '"private_key" does not decode as a PKCS#8 private key';
  }
  return undefined;
}

function optionalString(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}
