import { z } from 'zod';
import { withoutKeys } from '../../protocols/wire-json.js';
import { joinUpstreamUrl } from '../join-upstream-url.js';
import { mergeUpstreamHeaders } from '../merge-upstream-headers.js';
import { UpstreamCredentialError } from '../prepare-upstream-call.js';
import type { ChannelConfig } from '../../store/channels-repository.js';
import type { ProviderDescriptor, UpstreamEndpoint, UpstreamPayload } from '../provider-descriptor.js';
import { describeServiceAccountKeyProblem, parseServiceAccountKey } from './service-account-key.js';
import { vertexModelPath, vertexOrigin, vertexPublisherOf } from './vertex-model-kind.js';
import { VertexTokenError } from './vertex-token-error.js';
import { VertexTokenSource } from './vertex-token-source.js';

const configSchema = z.strictObject({
  region: z
    .string()
    .regex(/^[a-z][a-z0-9-]{0,62}$/, 'must be a Vertex AI location such as "us-central1" or "global"')
    .default('us-central1'),
  /** Default: the service account's `project_id`. */
  project: z.string().min(1).max(128).optional(),
  token_url: z.url({ protocol: /^https?$/ }).default('https://oauth2.googleapis.com/token'),
});
type VertexConfig = z.output<typeof configSchema>;

/** The Messages API version Vertex takes in the body of Claude models. */
export const VERTEX_ANTHROPIC_VERSION = 'vertex-2023-10-16';

/** One token cache for every Vertex channel of the process: keys shared by channels share tokens. */
const tokens = new VertexTokenSource();

/**
 * Google Vertex AI (admin-api section 5). A channel key is a whole service-account JSON key, which
 * is exchanged for access tokens (cached, refreshed ahead of expiry). Gemini models answer the
 * Gemini API's generateContent under the project's path; Claude models take the Anthropic Messages
 * body through `rawPredict` / `streamRawPredict`, so Messages clients get a same-protocol call.
 * https://cloud.google.com/vertex-ai/generative-ai/docs/model-reference/inference and
 * https://cloud.google.com/vertex-ai/generative-ai/docs/partner-models/claude/use-claude
 */
export const vertexProvider: ProviderDescriptor = {
  type: 'vertex',
  defaultBaseUrl: (config) => vertexOrigin(readConfig(config).region),
  configSchema,
  describeKeyProblem: describeServiceAccountKeyProblem,
  endpointTypes: (model) =>
    vertexPublisherOf(model) === 'anthropic' ? ['anthropic', 'openai'] : ['gemini', 'openai'],
  upstreamEndpoints: (model) =>
    vertexPublisherOf(model) === 'anthropic' ? ['anthropic-messages'] : ['gemini-generate-content'],
  buildUrl({ origin, key, config, endpoint, model, stream }) {
    const method = methodOf(endpoint, stream);
    if (method === undefined) return undefined;
    const { region, project } = readConfig(config);
    const path = vertexModelPath({
      project: project ?? parseServiceAccountKey(key).projectId ?? '',
      region,
      upstreamModel: model,
      method,
    });
    return joinUpstreamUrl(origin, path);
  },
  buildHeaders({ extraHeaders }) {
    // The access token is added by `authorize`.
    return mergeUpstreamHeaders({
      defaults: { 'content-type': 'application/json' },
      extra: extraHeaders,
      credentials: {},
    });
  },
  adaptPayload: (payload, { endpoint }) =>
    endpoint === 'anthropic-messages' ? toRawPredictBody(payload) : payload,
  async authorize({ headers, key, config, signal, dispatcher }) {
    try {
      const token = await tokens.token({ key, tokenUrl: readConfig(config).token_url, signal, dispatcher });
      return { ...headers, authorization: `Bearer ${token}` };
    } catch (error) {
      if (!(error instanceof VertexTokenError)) throw error;
      throw new UpstreamCredentialError(error.message, error.status);
    }
  },
  // A token revoked before its time: the key's next call (a retry, the key's probe) gets a new one.
  forgetCredentials: ({ key, config }) => tokens.invalidate({ key, tokenUrl: readConfig(config).token_url }),
};

function readConfig(config: ChannelConfig): VertexConfig {
  return configSchema.parse(config);
}

function methodOf(endpoint: UpstreamEndpoint, stream: boolean): string | undefined {
  switch (endpoint) {
    case 'gemini-generate-content':
      return stream ? 'streamGenerateContent?alt=sse' : 'generateContent';
    case 'anthropic-messages':
      return stream ? 'streamRawPredict' : 'rawPredict';
    default:
      return undefined;
  }
}

/**
 * An Anthropic Messages body as `rawPredict` takes it: no `model` (it is in the path) and Vertex's
 * `anthropic_version`; `anthropic-beta` stays a header, the version header does not travel. The
 * client's query (`beta=true` on `/v1/messages`) stays behind: it means nothing on Vertex, and
 * @anthropic-ai/vertex-sdk drops it too.
 */
function toRawPredictBody(payload: UpstreamPayload): UpstreamPayload {
  const body = withoutKeys(payload.body, ['model']) ?? {};
  const beta = payload.extraHeaders['anthropic-beta'];
  return {
    body: { ...body, anthropic_version: VERTEX_ANTHROPIC_VERSION },
    extraHeaders: beta === undefined ? {} : { 'anthropic-beta': beta },
    query: '',
  };
}
