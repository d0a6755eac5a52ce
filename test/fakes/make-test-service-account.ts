import { createHash, generateKeyPairSync, type KeyObject } from 'node:crypto';

/** A service account made for one test run: its key file and the public key that checks its signatures. */
export interface TestServiceAccount {
  clientEmail: string;
  projectId: string;
  privateKeyId: string;
  publicKey: KeyObject;
  /** The JSON key file, as Google's console downloads it. */
  keyFile: Record<string, string>;
  /** The key file as one string: what a vertex channel holds as its key. */
  json: string;
}

/**
 * A fresh RSA 2048 key pair wrapped in a service-account key file of Google's shape
 * (https://cloud.google.com/iam/docs/keys-create-delete#creating). `tokenUri` is required so a
 * test key never points at Google by accident.
 */
export function makeTestServiceAccount(options: {
  tokenUri: string;
  projectId?: string;
  accountName?: string;
}): TestServiceAccount {
  const projectId = options.projectId ?? 'fake-project';
  const clientEmail = `${options.accountName ?? 'gateway-test'}@${projectId}.iam.gserviceaccount.com`;
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  const privateKeyId = createHash('sha1').update(pem).digest('hex');
  const keyFile = {
    type: 'service_account',
    project_id: projectId,
    private_key_id: privateKeyId,
    private_key: pem,
    client_email: clientEmail,
    client_id: '100000000000000000001',
    auth_uri: 'https://accounts.google.com/o/oauth2/auth',
    token_uri: options.tokenUri,
    auth_provider_x509_cert_url: 'https://www.googleapis.com/oauth2/v1/certs',
    client_x509_cert_url: `https://www.googleapis.com/robot/v1/metadata/x509/${encodeURIComponent(clientEmail)}`,
    universe_domain: 'googleapis.com',
  };
  return {
    clientEmail,
    projectId,
    privateKeyId,
    publicKey,
    keyFile,
    json: JSON.stringify(keyFile, null, 2),
  };
}
