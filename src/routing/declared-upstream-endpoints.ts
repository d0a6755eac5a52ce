import type { UpstreamEndpoint } from '../providers/provider-descriptor.js';
import type { EndpointType } from './endpoint-type.js';

/** The endpoint type of `supported_endpoint_types` each upstream wire endpoint answers, where one does. */
const ENDPOINT_TYPE_OF: Record<UpstreamEndpoint, EndpointType | undefined> = {
  'openai-chat': 'openai',
  'openai-responses': 'openai-response',
  'openai-responses-compact': 'openai-response-compact',
  'openai-alpha-search': 'openai-alpha-search',
  'openai-images': 'image-generation',
  'openai-embeddings': 'embeddings',
  'jina-rerank': 'jina-rerank',
  'openai-audio-speech': 'audio-speech',
  'openai-audio-transcriptions': 'audio-transcription',
  'openai-audio-translations': 'audio-transcription',
  'openai-realtime': 'realtime',
  'anthropic-messages': 'anthropic',
  'gemini-generate-content': 'gemini',
  'gemini-embed-content': 'embeddings',
  'gemini-batch-embed-contents': 'embeddings',
  'gemini-predict': 'image-generation',
  // Bedrock's own protocol has no endpoint type: a Bedrock channel serves clients through conversion.
  'bedrock-converse': undefined,
};

/**
 * The upstream endpoints a channel is called at, in the upstream's order of preference. A channel
 * whose `endpoints` field names what it serves (admin-api section 2) is called only at the native
 * endpoints it names, when it names any: an `openai` channel declared `["openai"]` (a server
 * without `/v1/responses`) has its Responses clients converted to chat completions rather than
 * passed through. Where it names none of them (an `anthropic` channel declared `["openai"]`: chat
 * clients only), the endpoints its upstream speaks stay as they are.
 */
export function declaredUpstreamEndpoints(
  declared: readonly string[] | null,
  native: readonly UpstreamEndpoint[],
): readonly UpstreamEndpoint[] {
  if (declared === null) return native;
  const named = native.filter((endpoint) => {
    const type = ENDPOINT_TYPE_OF[endpoint];
    return type !== undefined && declared.includes(type);
  });
  return named.length > 0 ? named : native;
}
