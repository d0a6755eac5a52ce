import { silentWav } from '../audio/silent-wav.js';
import { outgoingMultipart, type OutgoingMultipart } from '../relay/outgoing-multipart.js';
import type { UpstreamEndpoint } from './provider-descriptor.js';

const prompt = 'hi';

/** The smallest valid request for the channel test, in the upstream's own format; undefined: no probe there. */
export function probeRequestBody(
  endpoint: UpstreamEndpoint,
  model: string,
): Record<string, unknown> | undefined {
  switch (endpoint) {
    case 'openai-chat':
      // https://platform.openai.com/docs/api-reference/chat/create
      return { model, messages: [{ role: 'user', content: prompt }], max_tokens: 1 };
    case 'openai-responses':
      // https://platform.openai.com/docs/api-reference/responses/create (the minimum cap is 16)
      return { model, input: prompt, max_output_tokens: 16 };
    case 'anthropic-messages':
      // https://docs.anthropic.com/en/api/messages
      return { model, max_tokens: 1, messages: [{ role: 'user', content: prompt }] };
    case 'gemini-generate-content':
      // https://ai.google.dev/api/generate-content; the model is in the URL.
      return {
        contents: [{ role: 'user', parts: [{ text: prompt }] }],
        generationConfig: { maxOutputTokens: 1 },
      };
    case 'bedrock-converse':
      // https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_Converse.html; the model is in the URL.
      return { messages: [{ role: 'user', content: [{ text: prompt }] }], inferenceConfig: { maxTokens: 1 } };
    case 'openai-embeddings':
      // https://platform.openai.com/docs/api-reference/embeddings/create
      return { model, input: prompt };
    case 'jina-rerank':
      // https://jina.ai/reranker/
      return { model, query: prompt, documents: [prompt], top_n: 1 };
    case 'gemini-embed-content':
      // https://ai.google.dev/api/embeddings#method:-models.embedcontent; the model is in the URL.
      return { content: { parts: [{ text: prompt }] } };
    case 'openai-audio-speech':
      // https://platform.openai.com/docs/api-reference/audio/createSpeech: two characters of raw PCM.
      return { model, input: prompt, voice: 'alloy', response_format: 'pcm' };
    // Nothing to probe cheaply: compaction needs a conversation, searches and images cost a call.
    case 'openai-responses-compact':
    case 'openai-alpha-search':
    case 'openai-images':
    case 'gemini-batch-embed-contents':
    case 'gemini-predict':
    // A form, not a JSON body: `probeForm`.
    case 'openai-audio-transcriptions':
    case 'openai-audio-translations':
    // A WebSocket session, opened and read by `probeRealtime`.
    case 'openai-realtime':
      return {};
    default: {
      const unknownEndpoint: never = endpoint;
      return unknownEndpoint;
    }
  }
}

/**
 * The channel test's form for speech to text
 * (https://platform.openai.com/docs/api-reference/audio/createTranscription): a tenth of a second
 * of silence as a WAV file. Undefined for the endpoints that take JSON.
 */
export function probeForm(endpoint: UpstreamEndpoint, model: string): OutgoingMultipart | undefined {
  if (endpoint !== 'openai-audio-transcriptions' && endpoint !== 'openai-audio-translations')
    return undefined;
  const wav = silentWav(100);
  return outgoingMultipart([{ name: 'model', value: model }], {
    name: 'file',
    filename: 'probe.wav',
    contentType: 'audio/wav',
    size: wav.length,
    source: wav,
  });
}
