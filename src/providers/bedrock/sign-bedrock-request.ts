import { loadOnFirstUse } from '../../load-on-first-use.js';
import type { BedrockCredential } from './bedrock-credential.js';

/**
 * Bedrock runtime requests are signed for the service name `bedrock` (the credential scope the
 * AWS SDK's bedrock-runtime client uses), not the endpoint's `bedrock-runtime` prefix.
 */
const SIGNING_SERVICE = 'bedrock';

const signatureV4 = loadOnFirstUse<typeof import('@smithy/signature-v4')>('@smithy/signature-v4');
const hashNode = loadOnFirstUse<typeof import('@smithy/hash-node')>('@smithy/hash-node');

/**
 * The headers to send with a `POST` to a Bedrock runtime URL: the given ones plus the credential's.
 *
 * SigV4 (https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_sigv-create-signed-request.html)
 * adds `host`, `x-amz-date`, `x-amz-content-sha256` (the body's SHA-256, as the AWS SDK sends it),
 * `x-amz-security-token` for temporary credentials, and `authorization`; every given header is
 * signed, so send them unchanged. The path is signed exactly as it appears in `url`: a model ID
 * there is URL-encoded once (`/model/arn%3Aaws%3A...%2Fprofile/invoke`), and the signer encodes
 * each segment again for the canonical request, as AWS does for every service but S3.
 *
 * A Bedrock API key is simply `Authorization: Bearer <key>`
 * (https://docs.aws.amazon.com/bedrock/latest/userguide/api-keys-use.html).
 */
export async function signBedrockRequest(options: {
  url: string;
  headers: Record<string, string>;
  body: string | Uint8Array;
  credential: BedrockCredential;
  region: string;
  now?: Date;
}): Promise<Record<string, string>> {
  const { credential } = options;
  if (credential.kind === 'api-key')
    return { ...options.headers, authorization: `Bearer ${credential.token}` };
  const url = new URL(options.url);
  const { Hash } = hashNode();
  const signer = new (signatureV4().SignatureV4)({
    service: SIGNING_SERVICE,
    region: options.region,
    credentials: {
      accessKeyId: credential.accessKeyId,
      secretAccessKey: credential.secretAccessKey,
      sessionToken: credential.sessionToken,
    },
    sha256: Hash.bind(null, 'sha256'),
  });
  const signed = await signer.sign(
    {
      method: 'POST',
      protocol: url.protocol,
      hostname: url.hostname,
      port: url.port === '' ? undefined : Number(url.port),
      path: url.pathname,
      query: queryOf(url.searchParams),
      headers: { ...options.headers, host: url.host },
      body: options.body,
    },
    { signingDate: options.now ?? new Date() },
  );
  return signed.headers;
}

/** Decoded names and values; the signer encodes them for the canonical query string. */
function queryOf(params: URLSearchParams): Record<string, string[]> {
  const query: Record<string, string[]> = {};
  for (const [name, value] of params) (query[name] ??= []).push(value);
  return query;
}
