/** Endpoint kinds of `supported_endpoint_types` (client-api section 2.1), with their real names. */
export const endpointTypes = [
  'openai',
  'openai-response',
  'openai-response-compact',
  'openai-alpha-search',
  'anthropic',
  'gemini',
  'image-generation',
  'embeddings',
  'jina-rerank',
  // Audio and realtime (admin-api section 14): served only by channels whose `endpoints` name them.
  'audio-speech',
  'audio-transcription',
  'realtime',
] as const;

export type EndpointType = (typeof endpointTypes)[number];

export function isEndpointType(value: string): value is EndpointType {
  return (endpointTypes as readonly string[]).includes(value);
}
