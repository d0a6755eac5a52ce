/**
 * OpenTelemetry GenAI semantic-convention attributes the gateway sets
 * (https://opentelemetry.io/docs/specs/semconv/gen-ai/gen-ai-spans/). They are still incubating,
 * and the semantic-conventions package asks users to copy incubating names rather than import
 * them, since they may change in a minor release.
 */
export const GEN_AI_OPERATION_NAME = 'gen_ai.operation.name';
export const GEN_AI_PROVIDER_NAME = 'gen_ai.provider.name';
/** The older name of the provider attribute, still read by many backends. */
export const GEN_AI_SYSTEM = 'gen_ai.system';
export const GEN_AI_REQUEST_MODEL = 'gen_ai.request.model';
export const GEN_AI_REQUEST_STREAM = 'gen_ai.request.stream';
export const GEN_AI_RESPONSE_MODEL = 'gen_ai.response.model';
export const GEN_AI_RESPONSE_FINISH_REASONS = 'gen_ai.response.finish_reasons';
export const GEN_AI_RESPONSE_TIME_TO_FIRST_CHUNK = 'gen_ai.response.time_to_first_chunk';
export const GEN_AI_USAGE_INPUT_TOKENS = 'gen_ai.usage.input_tokens';
export const GEN_AI_USAGE_OUTPUT_TOKENS = 'gen_ai.usage.output_tokens';
export const GEN_AI_USAGE_CACHE_READ_INPUT_TOKENS = 'gen_ai.usage.cache_read.input_tokens';
export const GEN_AI_USAGE_CACHE_CREATION_INPUT_TOKENS = 'gen_ai.usage.cache_creation.input_tokens';
export const GEN_AI_USAGE_REASONING_OUTPUT_TOKENS = 'gen_ai.usage.reasoning.output_tokens';

/** The gateway's own attributes. */
export const GATEWAY_REQUEST_ID = 'gateway.request.id';
export const GATEWAY_ENDPOINT = 'gateway.endpoint';
/** The public model the client named: a virtual model's name, or the model that served it. */
export const GATEWAY_REQUESTED_MODEL = 'gateway.requested_model';
export const GATEWAY_CHANNEL_ID = 'gateway.channel.id';
export const GATEWAY_CHANNEL_TYPE = 'gateway.channel.type';
export const GATEWAY_COST_USD = 'gateway.cost.usd';
export const GATEWAY_USER_ID = 'gateway.user.id';
export const GATEWAY_KEY_ID = 'gateway.key.id';
export const GATEWAY_ATTEMPT_OUTCOME = 'gateway.attempt.outcome';

/** `gen_ai.operation.name` of each relay endpoint; the well-known values where one fits. */
const operations: ReadonlyMap<string, string> = new Map([
  ['chat-completions', 'chat'],
  ['messages', 'chat'],
  ['responses', 'chat'],
  ['responses-compact', 'chat'],
  ['generate-content', 'generate_content'],
  ['stream-generate-content', 'generate_content'],
  ['image-generations', 'generate_content'],
  ['embeddings', 'embeddings'],
  ['embed-content', 'embeddings'],
  ['batch-embed-contents', 'embeddings'],
]);

export function operationName(endpoint: string): string {
  return operations.get(endpoint) ?? endpoint;
}

/** `gen_ai.provider.name` of each channel type: the well-known values, else the type itself. */
const providers: ReadonlyMap<string, string> = new Map([
  ['openai', 'openai'],
  ['azure', 'azure.ai.openai'],
  ['anthropic', 'anthropic'],
  ['gemini', 'gcp.gemini'],
  ['vertex', 'gcp.vertex_ai'],
  ['bedrock', 'aws.bedrock'],
  ['deepseek', 'deepseek'],
  ['groq', 'groq'],
  ['mistral', 'mistral_ai'],
  ['xai', 'x_ai'],
]);

export function providerName(channelType: string): string {
  return providers.get(channelType) ?? channelType;
}
