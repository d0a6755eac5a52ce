import { createHash } from 'node:crypto';
import { Hash } from '@smithy/hash-node';
import { SignatureV4 } from '@smithy/signature-v4';
import type { FakeDenial, RecordedRequest } from './fake-upstream.js';

export interface FakeAwsCredential {
  accessKeyId: string;
  secretAccessKey: string;
  /** Temporary credentials: requests must carry it as `x-amz-security-token`. */
  sessionToken?: string;
}

const SERVICE = 'bedrock';
const MAX_SKEW_MS = 5 * 60_000;
const authorizationPattern = /^AWS4-HMAC-SHA256 (.*)$/;
const amzDatePattern = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/;

/**
 * Checks a SigV4 signature as AWS does
 * (https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_sigv-troubleshooting.html): the
 * signature is recomputed with @smithy/signature-v4 over the request as received (raw path, the
 * headers it lists as signed, the body's own hash) with the secret of the access key it names.
 * Refusals carry AWS's exception names and wording.
 */
export async function verifyBedrockSignature(options: {
  request: RecordedRequest;
  credentials: readonly FakeAwsCredential[];
  region: string;
  now: Date;
}): Promise<FakeDenial | undefined> {
  const { request } = options;
  const authorization = headerValue(request, 'authorization') ?? '';
  const parameters = parseParameters(authorizationPattern.exec(authorization)?.[1] ?? '');
  const missing = ['Credential', 'Signature', 'SignedHeaders'].filter((name) => !parameters.get(name));
  if (missing.length > 0)
    return incomplete(
      `${missing.map((name) => `Authorization header requires '${name}' parameter.`).join(' ')} Authorization=${authorization}`,
    );
  const [accessKeyId = '', scopeDate = '', region = '', service = '', terminator = ''] = (
    parameters.get('Credential') ?? ''
  ).split('/');
  if (terminator !== 'aws4_request')
    return incomplete(
      `Credential should be scoped with a valid terminator: 'aws4_request', not '${terminator}'.`,
    );
  const amzDate = headerValue(request, 'x-amz-date');
  if (amzDate === undefined)
    return incomplete(
      `Authorization header requires existence of either a 'X-Amz-Date' or a 'Date' header. Authorization=${authorization}`,
    );
  const signedAt = parseAmzDate(amzDate);
  if (!signedAt)
    return incomplete(
      `Date must be in ISO-8601 'basic format'. Got '${amzDate}'. See http://en.wikipedia.org/wiki/ISO_8601`,
    );
  const known = options.credentials.find((credential) => credential.accessKeyId === accessKeyId);
  if (!known || headerValue(request, 'x-amz-security-token') !== known.sessionToken) return unrecognized();
  const scopeProblem = checkScope({ scopeDate, region, service, amzDate, expectedRegion: options.region });
  if (scopeProblem) return invalid(scopeProblem);
  const skew = signedAt.getTime() - options.now.getTime();
  if (skew < -MAX_SKEW_MS)
    return invalid(
      `Signature expired: ${amzDate} is now earlier than ${formatAmzDate(options.now.getTime() - MAX_SKEW_MS)} (${formatAmzDate(options.now.getTime())} - 5 min.)`,
    );
  if (skew > MAX_SKEW_MS)
    return invalid(
      `Signature not yet current: ${amzDate} is still later than ${formatAmzDate(options.now.getTime() + MAX_SKEW_MS)} (${formatAmzDate(options.now.getTime())} + 5 min.)`,
    );
  const signedHeaders = (parameters.get('SignedHeaders') ?? '').split(';');
  if (!signedHeaders.includes('host'))
    return invalid("'Host' or ':authority' must be a 'SignedHeader' in the AWS Authorization.");
  const expected = await expectedSignature({ request, credential: known, region, signedHeaders, signedAt });
  return expected === parameters.get('Signature') ? undefined : invalid(SIGNATURE_MISMATCH);
}

export const SIGNATURE_MISMATCH =
  'The request signature we calculated does not match the signature you provided. Check your AWS Secret Access Key and signing method. Consult the service documentation for details.';

async function expectedSignature(options: {
  request: RecordedRequest;
  credential: FakeAwsCredential;
  region: string;
  signedHeaders: string[];
  signedAt: Date;
}): Promise<string | undefined> {
  const { request } = options;
  const body = request.rawBody ?? Buffer.alloc(0);
  // AWS hashes the body it received; a client's `x-amz-content-sha256` claiming another hash fails.
  const claimed = headerValue(request, 'x-amz-content-sha256');
  if (claimed !== undefined && claimed !== createHash('sha256').update(body).digest('hex')) return undefined;
  const [rawPath = '/', rawQuery = ''] = request.url.split('?', 2);
  const query: Record<string, string[]> = {};
  for (const [name, value] of new URLSearchParams(rawQuery)) (query[name] ??= []).push(value);
  const headers = Object.fromEntries(
    options.signedHeaders.map((name) => [name, headerValue(request, name) ?? '']),
  );
  const signer = new SignatureV4({
    service: SERVICE,
    region: options.region,
    credentials: options.credential,
    sha256: Hash.bind(null, 'sha256'),
  });
  const signed = await signer.sign(
    {
      method: request.method,
      protocol: 'https:',
      hostname: headers.host ?? '',
      path: rawPath,
      query,
      headers,
      body,
    },
    { signingDate: options.signedAt, signableHeaders: new Set(options.signedHeaders) },
  );
  return /Signature=([0-9a-f]+)$/.exec(signed.headers.authorization ?? '')?.[1];
}

function checkScope(scope: {
  scopeDate: string;
  region: string;
  service: string;
  amzDate: string;
  expectedRegion: string;
}): string | undefined {
  const day = scope.amzDate.slice(0, 8);
  if (scope.scopeDate !== day)
    return `Date in Credential scope does not match YYYYMMDD from ISO-8601 version of date from HTTP: '${scope.scopeDate}' != '${day}', from '${scope.amzDate}'.`;
  if (scope.region !== scope.expectedRegion) return 'Credential should be scoped to a valid region. ';
  if (scope.service !== SERVICE) return `Credential should be scoped to correct service: '${SERVICE}'. `;
  return undefined;
}

/** `Credential=..., SignedHeaders=..., Signature=...` */
function parseParameters(text: string): Map<string, string> {
  const parameters = new Map<string, string>();
  for (const part of text.split(',')) {
    const [name = '', ...value] = part.trim().split('=');
    if (name) parameters.set(name, value.join('='));
  }
  return parameters;
}

function headerValue(request: RecordedRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value.join(',') : value;
}

function parseAmzDate(text: string): Date | undefined {
  const match = amzDatePattern.exec(text);
  if (!match) return undefined;
  const [, year, month, day, hour, minute, second] = match;
  return new Date(`${year}-${month}-${day}T${hour}:${minute}:${second}Z`);
}

function formatAmzDate(time: number): string {
  return new Date(time)
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');
}

// The AWS front door's own exceptions, all 403 on Bedrock runtime.
const invalid = (message: string): FakeDenial => ({
  status: 403,
  code: 'InvalidSignatureException',
  message,
});
const incomplete = (message: string): FakeDenial => ({
  status: 403,
  code: 'IncompleteSignatureException',
  message,
});
const unrecognized = (): FakeDenial => ({
  status: 403,
  code: 'UnrecognizedClientException',
  message: 'The security token included in the request is invalid.',
});
