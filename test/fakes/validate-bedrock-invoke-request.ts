import { isRecord, type RequestProblem } from './fake-upstream.js';
import { validateAnthropicRequest } from './validate-anthropic-request.js';

/**
 * `anthropic_version` Bedrock takes: its own `bedrock-2023-05-31`
 * (https://docs.aws.amazon.com/bedrock/latest/userguide/model-parameters-anthropic-claude-messages-request-response.html),
 * and the dated Anthropic API versions @anthropic-ai/bedrock-sdk 1.x puts there (it copies its
 * `anthropic-version` header, `2026-10-21` today, into the body).
 */
const versionPattern = /^(bedrock-2023-05-31|\d{4}-\d{2}-\d{2})$/;

/** Bedrock's schema check words its refusals this way; semantic ones come from Anthropic's validation. */
function malformed(detail: string): RequestProblem {
  return {
    message: `Malformed input request: ${detail}, please reformat your input and try again.`,
    code: 'ValidationException',
  };
}

function jsonType(value: unknown): string {
  if (Array.isArray(value)) return 'JSONArray';
  if (value === null) return 'Null';
  if (typeof value === 'object') return 'JSONObject';
  return typeof value === 'string' ? 'String' : typeof value === 'number' ? 'Number' : 'Boolean';
}

/**
 * `POST /model/{modelId}/invoke` and `/invoke-with-response-stream` of a Claude model: the
 * Anthropic messages body without `model` and `stream` (the path says both), with
 * `anthropic_version`, optional `anthropic_beta` (a list of beta names).
 */
export function validateBedrockInvokeRequest(body: unknown, modelId: string): RequestProblem | undefined {
  // The fake serves Claude models only on InvokeModel; others have bodies of their own.
  if (!modelId.includes('anthropic.'))
    return { message: 'The provided model identifier is invalid.', code: 'ValidationException' };
  if (!isRecord(body)) return malformed(`#: expected type: JSONObject, found: ${jsonType(body)}`);
  for (const key of ['model', 'stream'])
    if (key in body) return malformed(`#: extraneous key [${key}] is not permitted`);
  for (const key of ['anthropic_version', 'max_tokens', 'messages'])
    if (body[key] === undefined) return malformed(`#: required key [${key}] not found`);
  const { anthropic_version: version, anthropic_beta: betas, ...anthropicBody } = body;
  if (typeof version !== 'string' || !versionPattern.test(version))
    return malformed(`#/anthropic_version: ${String(version)} is not a valid enum value`);
  if (betas !== undefined && !Array.isArray(betas))
    return malformed(`#/anthropic_beta: expected type: JSONArray, found: ${jsonType(betas)}`);
  const notString = Array.isArray(betas) ? betas.findIndex((beta) => typeof beta !== 'string') : -1;
  if (Array.isArray(betas) && notString >= 0)
    return malformed(
      `#/anthropic_beta/${notString}: expected type: String, found: ${jsonType(betas[notString])}`,
    );
  const refused = validateAnthropicRequest({ ...anthropicBody, model: modelId });
  return refused && { ...refused, code: 'ValidationException' };
}
