/**
 * One key of a `bedrock` channel (spec/admin-api.md section 5): an AWS access key pair, with the
 * session token of temporary credentials, for SigV4-signed requests; or a Bedrock API key sent as
 * `Authorization: Bearer` (https://docs.aws.amazon.com/bedrock/latest/userguide/api-keys-use.html).
 */
export type BedrockCredential =
  | { kind: 'sigv4'; accessKeyId: string; secretAccessKey: string; sessionToken?: string }
  | { kind: 'api-key'; token: string };

/**
 * Access key IDs are 16 to 128 upper-case letters and digits (`AKIA...` long-term, `ASIA...`
 * temporary; https://docs.aws.amazon.com/IAM/latest/APIReference/API_AccessKey.html).
 */
const accessKeyIdPattern = /^[A-Z0-9]{16,128}$/;

/**
 * `ACCESS_KEY_ID:SECRET_ACCESS_KEY[:SESSION_TOKEN]` is a SigV4 key pair; anything else is a Bedrock
 * API key (long-term keys start `ABSK`, short-term ones `bedrock-api-key-`). Secret keys and session
 * tokens are base64-like and never hold a colon, nor do API keys, so the colon count decides.
 */
export function parseBedrockCredential(key: string): BedrockCredential {
  const trimmed = key.trim();
  const [accessKeyId = '', secretAccessKey = '', sessionToken, ...rest] = trimmed.split(':');
  const isKeyPair =
    rest.length === 0 &&
    accessKeyIdPattern.test(accessKeyId) &&
    secretAccessKey !== '' &&
    sessionToken !== '';
  if (!isKeyPair) return { kind: 'api-key', token: trimmed };
  return sessionToken === undefined
    ? { kind: 'sigv4', accessKeyId, secretAccessKey }
    : { kind: 'sigv4', accessKeyId, secretAccessKey, sessionToken };
}
