/**
 * A fake Azure OpenAI resource on 127.0.0.1, on the shared harness of fake-upstream.ts:
 *
 *   const fake = await startFakeAzure({ apiKey: 'azure-key', deployments: { 'gpt4o-prod': 'gpt-4o-2024-11-20' } });
 *   fake.origin                // an azure channel's base_url, or AzureOpenAI's `endpoint`
 *   fake.scriptContentFilter() // the next request is refused by the prompt filter (400 content_filter)
 *   fake.script(...), fake.requests, ...  // as every fake
 *
 * It serves the OpenAI fake's endpoints at Azure's paths: `/openai/v1/...` (the v1 API, the
 * deployment as the body's `model`), `/openai/deployments/{deployment}/...?api-version=` and
 * `/openai/responses?api-version=` (dated versions). It checks what Azure checks, in Azure's
 * words: the `api-key` header, the `api-version` query (none on a dated path: 404; unknown: 400),
 * the deployment. Chat replies carry Azure's content filter results, and streams open with a
 * chunk of no choices holding the prompt's results.
 * https://learn.microsoft.com/azure/ai-foundry/openai/reference
 */
import { azureChatReply } from './azure-chat-filters.js';
import {
  AZURE_RESOURCE_NOT_FOUND,
  azureTarget,
  checkAzureDeployment,
  checkAzureVersion,
  type AzureTarget,
} from './azure-target.js';
import { openaiEndpoints, openaiVendor } from './fake-openai.js';
import {
  asRecord,
  isRecord,
  startFakeUpstream,
  type FakeUpstream,
  type FakeUpstreamOptions,
  type FakeVendor,
  type RecordedRequest,
} from './fake-upstream.js';

export interface FakeAzureOptions extends FakeUpstreamOptions {
  /** Deployment name -> the model it runs; default `{ 'gpt-4o-deployment': 'gpt-4o-2024-11-20' }`. */
  deployments?: Record<string, string>;
}

export interface FakeAzure extends FakeUpstream {
  /** Refuses the next request as the prompt filter does (violence, medium). */
  scriptContentFilter(): void;
}

export const AZURE_ACCESS_DENIED =
  'Access denied due to invalid subscription key or wrong API endpoint. Make sure to provide a valid key for an active subscription and use a correct regional API endpoint for your resource.';

export const AZURE_CONTENT_FILTER_MESSAGE =
  "The response was filtered due to the prompt triggering Azure OpenAI's content management policy. Please modify your prompt and retry. To learn more about our content filtering policies please read our documentation: https://go.microsoft.com/fwlink/?linkid=2198766";

/** https://learn.microsoft.com/azure/ai-foundry/openai/concepts/content-filter#scenario-details */
export const AZURE_CONTENT_FILTER_ERROR = {
  error: {
    message: AZURE_CONTENT_FILTER_MESSAGE,
    type: null,
    param: 'prompt',
    code: 'content_filter',
    status: 400,
    innererror: {
      code: 'ResponsibleAIPolicyViolation',
      content_filter_result: {
        hate: { filtered: false, severity: 'safe' },
        jailbreak: { filtered: false, detected: false },
        self_harm: { filtered: false, severity: 'safe' },
        sexual: { filtered: false, severity: 'safe' },
        violence: { filtered: true, severity: 'medium' },
      },
    },
  },
};

/** Codes of the refusals Azure's front end answers itself, in its `{code, message}` shape. */
const frontEndCodes = new Set(['401', '404', 'BadRequest', 'DeploymentNotFound']);

export async function startFakeAzure(options: FakeAzureOptions = {}): Promise<FakeAzure> {
  const deployments = options.deployments ?? { 'gpt-4o-deployment': 'gpt-4o-2024-11-20' };
  const upstream = await startFakeUpstream(azureVendor(deployments), options);
  return {
    ...upstream,
    scriptContentFilter: () =>
      upstream.script({ type: 'error', status: 400, message: AZURE_CONTENT_FILTER_MESSAGE }),
  };
}

function azureVendor(deployments: Readonly<Record<string, string>>): FakeVendor {
  return {
    defaultText: 'Hello from fake Azure OpenAI.',
    authenticate(request, isValidKey) {
      // https://learn.microsoft.com/azure/ai-foundry/openai/reference#authentication
      if (!isValidKey(request.headers['api-key']))
        return { status: 401, message: AZURE_ACCESS_DENIED, code: '401' };
      const target = azureTarget(request);
      if (!target) return AZURE_RESOURCE_NOT_FOUND;
      return checkAzureVersion(target) ?? checkAzureDeployment(target, deployments);
    },
    errorBody(status, message, detail) {
      if (status === 400 && message === AZURE_CONTENT_FILTER_MESSAGE) return AZURE_CONTENT_FILTER_ERROR;
      if (detail?.code != null && frontEndCodes.has(detail.code))
        return { error: { code: detail.code, message } };
      // The model's own refusals of a body come in OpenAI's shape.
      if (status === 400) return openaiVendor.errorBody(status, message, detail);
      return { error: { code: String(status), message } };
    },
    validate(request) {
      const target = azureTarget(request);
      if (!target) return undefined;
      return openaiEndpoints.get(target.endpoint)?.validate(asOpenAI(request, target).body, request);
    },
    streamErrorEvent(request, message) {
      const target = azureTarget(request);
      return openaiVendor.streamErrorEvent(target ? asOpenAI(request, target) : request, message);
    },
    reply(request, content, nextId) {
      const target = azureTarget(request);
      const endpoint = target && openaiEndpoints.get(target.endpoint);
      if (!target || !endpoint) return undefined;
      const reply = endpoint.reply(asOpenAI(request, target), content, nextId);
      if (target.endpoint !== '/v1/chat/completions') return reply;
      return azureChatReply(reply, deployments[target.deployment ?? ''] ?? 'gpt-4o');
    },
  };
}

/** The request as the OpenAI endpoint it amounts to; on a deployment path the body's `model` is optional. */
function asOpenAI(request: RecordedRequest, target: AzureTarget): RecordedRequest {
  const fill = isRecord(request.body) && request.body.model === undefined && target.deployment;
  return {
    ...request,
    path: target.endpoint,
    body: fill ? { ...asRecord(request.body), model: target.deployment } : request.body,
  };
}
