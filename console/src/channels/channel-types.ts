/**
 * Channel types and their own settings (admin-api section 5). The API lists neither, so the
 * console keeps them here; src/providers/registry.ts is the gateway's side of the same list, and
 * test/unit/console-channel-types.test.ts holds the two together.
 */

export const CHANNEL_TYPES = [
  'openai',
  'anthropic',
  'gemini',
  'azure',
  'bedrock',
  'vertex',
  'deepseek',
  'openrouter',
  'xai',
  'mistral',
  'groq',
  'together',
  'fireworks',
  'moonshot',
  'zhipu',
  'qwen',
  'siliconflow',
  'ollama',
  'vllm',
] as const;

export type ChannelType = (typeof CHANNEL_TYPES)[number];

export type ConfigFieldName = 'api_version' | 'region' | 'project' | 'token_url';

export interface ConfigField {
  name: ConfigFieldName;
  required: boolean;
  /** What the gateway uses when the member is left out. */
  defaultValue?: string;
  /** The i18n key of the field's explanation under `channelConfig`. */
  hint: 'api_versionHint' | 'regionBedrockHint' | 'regionVertexHint' | 'projectHint' | 'token_urlHint';
  placeholder: string;
}

export interface ChannelTypeSpec {
  /** The public origin used when `base_url` is empty; null: `base_url` is required. */
  defaultBaseUrl: string | null;
  baseUrlExample?: string;
  keyHint: 'apiKey' | 'bedrock' | 'vertex';
  keyOptional: boolean;
  /** Vertex keys are whole JSON documents: one text area each. */
  multilineKeys: boolean;
  config: readonly ConfigField[];
  /** Endpoint types the gateway derives from the type, for one (upstream) model. */
  endpointTypes: (upstreamModel: string) => readonly string[];
}

/** Endpoint types a channel's `endpoints` may list (client-api section 2.1, admin-api section 14). */
export const ENDPOINT_TYPES = [
  'openai',
  'openai-response',
  'openai-response-compact',
  'openai-alpha-search',
  'anthropic',
  'gemini',
  'image-generation',
  'embeddings',
  'jina-rerank',
  // Served only by channels whose `endpoints` name them: no type derives them (admin-api section 14).
  'audio-speech',
  'audio-transcription',
  'realtime',
] as const;

const openaiCompatible = (defaultBaseUrl: string, keyOptional = false): ChannelTypeSpec => ({
  defaultBaseUrl,
  keyHint: 'apiKey',
  keyOptional,
  multilineKeys: false,
  config: [],
  endpointTypes: () => ['openai'],
});

export const CHANNEL_TYPE_SPECS: Readonly<Record<ChannelType, ChannelTypeSpec>> = {
  openai: {
    ...openaiCompatible('https://api.openai.com'),
    endpointTypes: () => ['openai', 'openai-response'],
  },
  anthropic: {
    ...openaiCompatible('https://api.anthropic.com'),
    endpointTypes: () => ['anthropic', 'openai'],
  },
  gemini: {
    ...openaiCompatible('https://generativelanguage.googleapis.com'),
    endpointTypes: () => ['gemini', 'openai'],
  },
  azure: {
    defaultBaseUrl: null,
    baseUrlExample: 'https://<resource>.openai.azure.com',
    keyHint: 'apiKey',
    keyOptional: false,
    multilineKeys: false,
    config: [
      {
        name: 'api_version',
        required: false,
        defaultValue: 'v1',
        hint: 'api_versionHint',
        placeholder: 'v1',
      },
    ],
    endpointTypes: () => ['openai', 'openai-response'],
  },
  bedrock: {
    defaultBaseUrl: 'https://bedrock-runtime.{region}.amazonaws.com',
    keyHint: 'bedrock',
    keyOptional: false,
    multilineKeys: false,
    config: [{ name: 'region', required: true, hint: 'regionBedrockHint', placeholder: 'us-east-1' }],
    endpointTypes: () => ['anthropic', 'openai'],
  },
  vertex: {
    defaultBaseUrl: 'https://{region}-aiplatform.googleapis.com',
    keyHint: 'vertex',
    keyOptional: false,
    multilineKeys: true,
    config: [
      {
        name: 'region',
        required: false,
        defaultValue: 'us-central1',
        hint: 'regionVertexHint',
        placeholder: 'us-central1',
      },
      { name: 'project', required: false, hint: 'projectHint', placeholder: 'my-project' },
      {
        name: 'token_url',
        required: false,
        defaultValue: 'https://oauth2.googleapis.com/token',
        hint: 'token_urlHint',
        placeholder: 'https://oauth2.googleapis.com/token',
      },
    ],
    // Claude models go to Anthropic's publisher on Vertex (src/providers/vertex/vertex-model-kind.ts).
    endpointTypes: (upstreamModel) =>
      upstreamModel.startsWith('claude-') ? ['anthropic', 'openai'] : ['gemini', 'openai'],
  },
  deepseek: openaiCompatible('https://api.deepseek.com'),
  openrouter: openaiCompatible('https://openrouter.ai/api'),
  xai: openaiCompatible('https://api.x.ai'),
  mistral: openaiCompatible('https://api.mistral.ai'),
  groq: openaiCompatible('https://api.groq.com/openai'),
  together: openaiCompatible('https://api.together.xyz'),
  fireworks: openaiCompatible('https://api.fireworks.ai/inference'),
  moonshot: openaiCompatible('https://api.moonshot.ai'),
  zhipu: openaiCompatible('https://open.bigmodel.cn/api/paas'),
  qwen: openaiCompatible('https://dashscope-intl.aliyuncs.com/compatible-mode'),
  siliconflow: openaiCompatible('https://api.siliconflow.cn'),
  ollama: openaiCompatible('http://127.0.0.1:11434', true),
  vllm: openaiCompatible('http://127.0.0.1:8000', true),
};

export function isChannelType(value: string): value is ChannelType {
  return (CHANNEL_TYPES as readonly string[]).includes(value);
}

/** A type this console does not know (a newer gateway): no settings of its own, nothing derived. */
export const UNKNOWN_TYPE_SPEC: ChannelTypeSpec = {
  defaultBaseUrl: null,
  keyHint: 'apiKey',
  keyOptional: true,
  multilineKeys: false,
  config: [],
  endpointTypes: () => [],
};

export function channelTypeSpec(type: string): ChannelTypeSpec {
  return isChannelType(type) ? CHANNEL_TYPE_SPECS[type] : UNKNOWN_TYPE_SPEC;
}
