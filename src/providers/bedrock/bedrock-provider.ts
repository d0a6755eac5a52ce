import { z } from 'zod';
import { withoutKeys } from '../../protocols/wire-json.js';
import { joinUpstreamUrl } from '../join-upstream-url.js';
import type { ProviderDescriptor, UpstreamEndpoint, UpstreamPayload } from '../provider-descriptor.js';
import { parseBedrockCredential } from './bedrock-credential.js';
import { createBedrockStreamFraming } from './bedrock-stream-framing.js';
import { signBedrockRequest } from './sign-bedrock-request.js';

/** https://docs.aws.amazon.com/general/latest/gr/bedrock.html: `us-east-1`, `eu-central-1`, `us-gov-west-1`... */
const region = z.string().regex(/^[a-z]{2}(-[a-z]+)+-\d{1,2}$/, 'must be an AWS region such as "us-east-1"');
const configSchema = z.strictObject({ region });

/** The Messages API version Bedrock takes in the body of Claude models. */
export const BEDROCK_ANTHROPIC_VERSION = 'bedrock-2023-05-31';

/** Claude models (`anthropic.claude-...`, inference profiles `us.anthropic.claude-...`, their ARNs). */
export function isBedrockClaudeModel(upstreamModel: string): boolean {
  return upstreamModel.includes('anthropic.');
}

/**
 * AWS Bedrock runtime (admin-api section 5). Claude models take the Anthropic Messages body through
 * InvokeModel (`/model/{id}/invoke`, `/invoke-with-response-stream`), so Messages clients get a
 * same-protocol call; every other model goes through the Converse API (`/model/{id}/converse`,
 * `/converse-stream`). Requests are SigV4-signed with an access key (or carry a Bedrock API key as a
 * bearer token), and streams come in AWS event-stream framing.
 * https://docs.aws.amazon.com/bedrock/latest/APIReference/API_Operations_Amazon_Bedrock_Runtime.html
 */
export const bedrockProvider: ProviderDescriptor = {
  type: 'bedrock',
  defaultBaseUrl: (config) => `https://bedrock-runtime.${configSchema.parse(config).region}.amazonaws.com`,
  configSchema,
  endpointTypes: () => ['anthropic', 'openai'],
  upstreamEndpoints: (model) => (isBedrockClaudeModel(model) ? ['anthropic-messages'] : ['bedrock-converse']),
  buildUrl({ origin, endpoint, model, stream }) {
    const action = actionOf(endpoint, stream);
    if (action === undefined) return undefined;
    // Inference-profile ARNs hold `:` and `/`: the ID is one path segment, encoded.
    return joinUpstreamUrl(origin, `/model/${encodeURIComponent(model)}/${action}`);
  },
  buildHeaders() {
    // Credentials are added by `authorize`, once the request is final: the signature covers it.
    return { 'content-type': 'application/json', accept: 'application/json' };
  },
  adaptPayload: (payload, { endpoint }) =>
    endpoint === 'anthropic-messages'
      ? toInvokeBody(payload)
      : { body: payload.body, extraHeaders: {}, query: '' },
  async authorize({ url, headers, body, key, config }) {
    return signBedrockRequest({
      url,
      headers,
      body,
      credential: parseBedrockCredential(key),
      region: configSchema.parse(config).region,
    });
  },
  streamFraming(endpoint) {
    if (endpoint === 'anthropic-messages') return () => createBedrockStreamFraming('invoke');
    if (endpoint === 'bedrock-converse') return () => createBedrockStreamFraming('converse');
    return undefined;
  },
};

function actionOf(endpoint: UpstreamEndpoint, stream: boolean): string | undefined {
  switch (endpoint) {
    case 'anthropic-messages':
      return stream ? 'invoke-with-response-stream' : 'invoke';
    case 'bedrock-converse':
      return stream ? 'converse-stream' : 'converse';
    default:
      return undefined;
  }
}

/**
 * An Anthropic Messages body as InvokeModel takes it
 * (https://docs.aws.amazon.com/bedrock/latest/userguide/model-parameters-anthropic-claude-messages-request-response.html):
 * no `model` (it is in the path) and no `stream` (the path says it), `anthropic_version` set, and
 * the client's `anthropic-beta` features as the body's `anthropic_beta` list. No header travels,
 * nor the client's query: the Messages API's `?beta=true` marker means nothing on Bedrock's path
 * (`adaptRequest` of @anthropic-ai/bedrock-sdk deletes it too).
 */
function toInvokeBody(payload: UpstreamPayload): UpstreamPayload {
  const rest = withoutKeys(payload.body, ['model', 'stream']) ?? {};
  const betas = (payload.extraHeaders['anthropic-beta'] ?? '')
    .split(',')
    .map((beta) => beta.trim())
    .filter((beta) => beta !== '');
  const given = Array.isArray(rest.anthropic_beta) ? (rest.anthropic_beta as unknown[]) : [];
  const anthropicBeta = [...new Set([...given, ...betas])];
  return {
    body: {
      ...rest,
      anthropic_version: BEDROCK_ANTHROPIC_VERSION,
      ...(anthropicBeta.length > 0 && { anthropic_beta: anthropicBeta }),
    },
    extraHeaders: {},
    query: '',
  };
}
