/**
 * Which family a Bedrock model belongs to, read from its model or inference-profile id
 * (`anthropic.claude-...`, `us.amazon.nova-2-lite-v1:0`, an inference-profile ARN naming one of
 * them), for the members of `additionalModelRequestFields` only that family accepts
 * (https://docs.aws.amazon.com/bedrock/latest/userguide/model-parameters.html). An id that names no
 * known family (an application inference profile's ARN) is `other`: nothing family-specific is sent.
 */
export type BedrockModelFamily = 'anthropic' | 'nova' | 'nova-2' | 'other';

export function bedrockModelFamily(modelId: string): BedrockModelFamily {
  const id = modelId.toLowerCase();
  if (/(^|[.:/])anthropic\.claude/.test(id)) return 'anthropic';
  if (/(^|[.:/])amazon\.nova-2/.test(id)) return 'nova-2';
  if (/(^|[.:/])amazon\.nova-/.test(id)) return 'nova';
  return 'other';
}
