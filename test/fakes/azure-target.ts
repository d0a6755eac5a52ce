import { asRecord, type FakeDenial, type RecordedRequest } from './fake-upstream.js';

/** What an Azure OpenAI path amounts to: an OpenAI endpoint, a deployment, an API version. */
export interface AzureTarget {
  /** `v1`: `/openai/v1/...`, deployment in the body; `dated`: `?api-version=` required. */
  style: 'v1' | 'dated';
  /** The OpenAI path it serves, a key of the OpenAI fake's endpoint table (`/v1/chat/completions`). */
  endpoint: string;
  /** From the path, or the body's `model`; undefined when neither names one. */
  deployment: string | undefined;
  apiVersion: string | null;
}

/** Operations under `/openai/deployments/{deployment}`; https://learn.microsoft.com/azure/ai-foundry/openai/reference */
const deploymentOperations = [
  '/chat/completions',
  '/embeddings',
  '/images/generations',
  '/audio/speech',
  '/audio/transcriptions',
  '/audio/translations',
];
/** Operations of the v1 API; https://learn.microsoft.com/azure/ai-foundry/openai/latest */
const v1Operations = [...deploymentOperations, '/responses'];

/** Dated versions the fake's resource knows; https://learn.microsoft.com/azure/ai-foundry/openai/api-version-lifecycle */
const datedVersions = new Set([
  '2024-02-01',
  '2024-06-01',
  '2024-10-21',
  '2024-12-01-preview',
  '2025-01-01-preview',
  '2025-03-01-preview',
  '2025-04-01-preview',
]);
/** The Responses API came with 2025-03-01-preview; https://learn.microsoft.com/azure/ai-foundry/openai/how-to/responses */
const responsesVersions = new Set(['2025-03-01-preview', '2025-04-01-preview']);
/** The v1 API takes no version, or `v1` / `preview`. */
const v1Versions = new Set(['v1', 'preview']);

export const AZURE_RESOURCE_NOT_FOUND: FakeDenial = {
  status: 404,
  message: 'Resource not found',
  code: '404',
};

export function azureTarget(request: RecordedRequest): AzureTarget | undefined {
  if (request.method !== 'POST') return undefined;
  const apiVersion = request.query.get('api-version');
  const model = asRecord(request.body).model;
  const named = typeof model === 'string' && model !== '' ? model : undefined;
  const v1 = /^\/openai\/v1(\/.+)$/.exec(request.path);
  if (v1?.[1] && v1Operations.includes(v1[1]))
    return { style: 'v1', endpoint: `/v1${v1[1]}`, deployment: named, apiVersion };
  if (request.path === '/openai/responses')
    return { style: 'dated', endpoint: '/v1/responses', deployment: named, apiVersion };
  const dated = /^\/openai\/deployments\/([^/]+)(\/.+)$/.exec(request.path);
  if (dated?.[1] && dated[2] && deploymentOperations.includes(dated[2]))
    return {
      style: 'dated',
      endpoint: `/v1${dated[2]}`,
      deployment: decodeURIComponent(dated[1]),
      apiVersion,
    };
  return undefined;
}

/** Azure's refusals of the version: none on a dated path is a 404, an unknown one a 400. */
export function checkAzureVersion(target: AzureTarget): FakeDenial | undefined {
  const version = target.apiVersion;
  if (target.style === 'v1')
    return version === null || v1Versions.has(version) ? undefined : versionNotSupported;
  if (version === null) return AZURE_RESOURCE_NOT_FOUND;
  if (!datedVersions.has(version)) return versionNotSupported;
  if (target.endpoint === '/v1/responses' && !responsesVersions.has(version))
    return {
      status: 400,
      message: 'Azure OpenAI Responses API is enabled only for api-version 2025-03-01-preview and later',
      code: 'BadRequest',
    };
  return undefined;
}

/** A deployment the resource does not have; a body without `model` is left to the body checks. */
export function checkAzureDeployment(
  target: AzureTarget,
  deployments: Readonly<Record<string, string>>,
): FakeDenial | undefined {
  if (target.deployment === undefined || Object.hasOwn(deployments, target.deployment)) return undefined;
  return {
    status: 404,
    message:
      'The API deployment for this resource does not exist. If you created the deployment within the last 5 minutes, please wait a moment and try again.',
    code: 'DeploymentNotFound',
  };
}

const versionNotSupported: FakeDenial = {
  status: 400,
  message: 'API version not supported',
  code: 'BadRequest',
};
