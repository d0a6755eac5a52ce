/**
 * A fake of Vertex AI's publisher models, on 127.0.0.1, with its own fake token endpoint:
 *
 *   const fake = await startFakeVertex({ project: 'fake-project', region: 'us-central1' });
 *   fake.origin                 // a vertex channel's base_url
 *   fake.tokenUrl               // its config.token_url (a `startFakeGoogleOAuth` server: fake.oauth)
 *   fake.serviceAccount.json    // its key: a service-account key file the token endpoint knows
 *   fake.script(...), fake.requests, ...  // the shared harness of fake-upstream.ts; clear() and
 *                                         // close() reach the token endpoint too, unless it was given
 *
 * Requests carry `Authorization: Bearer <token>`, a live token of fake.oauth with the
 * cloud-platform scope. Gemini models answer `.../publishers/google/models/{model}:generateContent`
 * and `:streamGenerateContent?alt=sse` as the Gemini API does (plus Vertex's `createTime` and
 * `trafficType`); Claude models answer `.../publishers/anthropic/models/{model}:rawPredict` and
 * `:streamRawPredict` as the Anthropic API does. Google's front end answers auth, permission,
 * not-found and quota (429) errors in Google's shape for both; other errors of a Claude model come
 * in Anthropic's shape, as Vertex passes Anthropic's own through.
 */
import { startFakeGoogleOAuth, type FakeGoogleOAuth } from './fake-google-oauth.js';
import {
  startFakeUpstream,
  type FakeDenial,
  type FakeUpstream,
  type FakeUpstreamOptions,
  type FakeVendor,
} from './fake-upstream.js';
import { makeTestServiceAccount, type TestServiceAccount } from './make-test-service-account.js';
import { validateVertexClaudeRequest, vertexClaudeReply, vertexClaudeStreamError } from './vertex-claude.js';
import { validateVertexGeminiRequest, vertexGeminiReply, vertexGeminiStreamError } from './vertex-gemini.js';
import { vertexResourceName, vertexTarget, type VertexTarget } from './vertex-target.js';

export interface FakeVertexOptions extends Omit<FakeUpstreamOptions, 'apiKey'> {
  /** Default `fake-project`: the only project this account may use. */
  project?: string;
  /** Default `us-central1`: the only location serving the models. */
  region?: string;
  /** Models served; default: any model whose publisher is right for it. */
  models?: string[];
  /** A token endpoint to share; default: one of the fake's own, closed with it. */
  oauth?: FakeGoogleOAuth;
  /** For the fake's own token endpoint. */
  tokenLifetimeSeconds?: number;
  now?: () => number;
  /** Send Vertex's `vertex_event` in Claude streams (default true). */
  vertexEvents?: boolean;
}

export interface FakeVertex extends FakeUpstream {
  project: string;
  region: string;
  oauth: FakeGoogleOAuth;
  tokenUrl: string;
  serviceAccount: TestServiceAccount;
}

const CLOUD_PLATFORM = 'https://www.googleapis.com/auth/cloud-platform';
const SEE_SIGN_IN = 'See https://developers.google.com/identity/sign-in/web/devconsole-project.';
const EXPECTED_CREDENTIAL =
  'Expected OAuth 2 access token, login cookie or other valid authentication credential.';
/** Statuses that Google's front end answers itself, before a partner model sees the request. */
const googleFrontStatuses = new Set([401, 403, 404, 429]);

export async function startFakeVertex(options: FakeVertexOptions = {}): Promise<FakeVertex> {
  const project = options.project ?? 'fake-project';
  const region = options.region ?? 'us-central1';
  const oauth =
    options.oauth ??
    (await startFakeGoogleOAuth({
      ...(options.tokenLifetimeSeconds !== undefined && {
        tokenLifetimeSeconds: options.tokenLifetimeSeconds,
      }),
      ...(options.now && { now: options.now }),
    }));
  const serviceAccount = makeTestServiceAccount({ tokenUri: oauth.tokenUrl, projectId: project });
  oauth.register(serviceAccount);
  const vendor = vertexVendor({
    project,
    region,
    oauth,
    models: options.models,
    vertexEvents: options.vertexEvents ?? true,
  });
  const upstream = await startFakeUpstream(vendor, options);
  return {
    ...upstream,
    project,
    region,
    oauth,
    tokenUrl: oauth.tokenUrl,
    serviceAccount,
    clear() {
      upstream.clear();
      if (!options.oauth) oauth.clear();
    },
    async close() {
      await upstream.close();
      if (!options.oauth) await oauth.close();
    },
  };
}

function vertexVendor(config: {
  project: string;
  region: string;
  oauth: FakeGoogleOAuth;
  models: string[] | undefined;
  vertexEvents: boolean;
}): FakeVendor {
  return {
    defaultText: 'Hello from fake Vertex.',
    authenticate(request) {
      // https://cloud.google.com/docs/authentication/rest
      const authorization = request.headers.authorization;
      if (!authorization)
        return {
          status: 401,
          message: `Request is missing required authentication credential. ${EXPECTED_CREDENTIAL} ${SEE_SIGN_IN}`,
        };
      const issued = config.oauth.lookUp(authorization.replace(/^Bearer /i, ''));
      if (!issued || !/^Bearer /i.test(authorization))
        return {
          status: 401,
          message: `Request had invalid authentication credentials. ${EXPECTED_CREDENTIAL} ${SEE_SIGN_IN}`,
        };
      if (!issued.scopes.includes(CLOUD_PLATFORM))
        return { status: 403, message: 'Request had insufficient authentication scopes.' };
      const target = vertexTarget(request);
      return target && checkTarget(target, config);
    },
    errorBody(status, message, detail, request) {
      const target = request && vertexTarget(request);
      if (target?.publisher === 'anthropic' && detail?.code == null && !googleFrontStatuses.has(status))
        // https://docs.anthropic.com/en/api/errors
        return {
          type: 'error',
          error: { type: anthropicErrorType(status), message },
          request_id: 'req_vrtx_fake',
        };
      // https://cloud.google.com/apis/design/errors#http_mapping
      return { error: { code: status, message, status: detail?.code ?? googleStatus(status) } };
    },
    validate(request) {
      const target = vertexTarget(request);
      if (!target) return undefined;
      return target.publisher === 'anthropic'
        ? validateVertexClaudeRequest(request.body, target.model)
        : validateVertexGeminiRequest(request.body, target.model);
    },
    streamErrorEvent(request, message) {
      return vertexTarget(request)?.publisher === 'anthropic'
        ? vertexClaudeStreamError(message)
        : vertexGeminiStreamError(message);
    },
    reply(request, content, nextId) {
      const target = vertexTarget(request);
      if (!target) return undefined;
      if (target.publisher === 'anthropic')
        return vertexClaudeReply({
          request,
          content,
          nextId,
          model: target.model,
          vertexEvents: config.vertexEvents,
        });
      const stream = target.method === 'streamGenerateContent';
      if (stream && request.query.get('alt') !== 'sse') return undefined;
      return vertexGeminiReply({ request, content, nextId, model: target.model, stream });
    },
  };
}

const methods: Record<string, readonly string[]> = {
  anthropic: ['rawPredict', 'streamRawPredict'],
  google: ['generateContent', 'streamGenerateContent'],
};

/** The project must be the account's, and the model served in that location by that publisher through that method. */
function checkTarget(
  target: VertexTarget,
  config: { project: string; region: string; models: string[] | undefined },
): FakeDenial | undefined {
  const resource = vertexResourceName(target);
  if (target.project !== config.project)
    return {
      status: 403,
      message: `Permission 'aiplatform.endpoints.predict' denied on resource '//aiplatform.googleapis.com/${resource}' (or it may not exist).`,
    };
  const publisher = target.model.startsWith('claude-') ? 'anthropic' : 'google';
  if (
    target.region !== config.region ||
    target.publisher !== publisher ||
    (config.models !== undefined && !config.models.includes(target.model))
  )
    return {
      status: 404,
      message: `Publisher Model \`${resource}\` was not found or your project does not have access to it. Please ensure you are using a valid model version. For more information, see: https://cloud.google.com/vertex-ai/generative-ai/docs/learn/model-versions`,
    };
  if (!methods[publisher]?.includes(target.method))
    return {
      status: 400,
      message: `${target.model} is not supported in the ${target.method} API.`,
      code: 'FAILED_PRECONDITION',
    };
  return undefined;
}

function googleStatus(status: number): string {
  const statuses: Record<number, string> = {
    400: 'INVALID_ARGUMENT',
    401: 'UNAUTHENTICATED',
    403: 'PERMISSION_DENIED',
    404: 'NOT_FOUND',
    429: 'RESOURCE_EXHAUSTED',
    499: 'CANCELLED',
    500: 'INTERNAL',
    503: 'UNAVAILABLE',
    504: 'DEADLINE_EXCEEDED',
  };
  return statuses[status] ?? (status >= 500 ? 'INTERNAL' : 'INVALID_ARGUMENT');
}

function anthropicErrorType(status: number): string {
  const types: Record<number, string> = {
    400: 'invalid_request_error',
    413: 'request_too_large',
    500: 'api_error',
    504: 'timeout_error',
    529: 'overloaded_error',
  };
  return types[status] ?? (status >= 500 ? 'api_error' : 'invalid_request_error');
}
