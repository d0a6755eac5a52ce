import { exactTokens } from '../../billing/token-estimate.js';
import { estimateTextTokens } from '../../billing/estimate-tokens.js';
import { mapUpstreamModel } from '../../providers/map-upstream-model.js';
import { countCharacters } from '../../protocols/openai-audio/check-speech-request.js';
import { speechStream, type SpeechRelayMode } from '../../protocols/openai-audio/speech-stream.js';
import { modelPrice, type RelayOperation } from '../relay-operation.js';
import { upstreamServes } from './json-plan.js';

/**
 * `POST /v1/audio/speech` (admin-api section 14): to OpenAI-protocol channels that declare
 * `audio-speech`, the body as it is (model mapped); the audio streams back as it arrives, with the
 * upstream's content type. Reserved and billed by the characters of `input` at
 * `per_million_characters`, or by the tokens the upstream reports in its events.
 */
export const speechOperation: RelayOperation = {
  select: (candidates, model) =>
    candidates.filter((channel) => upstreamServes(channel, 'openai-audio-speech', model)),
  isStream: () => true,
  billingPrice: modelPrice,
  preCharge: (body) => {
    const input = body.input as string;
    return {
      inputTokens: exactTokens(estimateTextTokens(input)),
      outputCap: 0,
      calls: 1,
      characters: countCharacters(input),
    };
  },
  forwardedHeaders: [],
  wantsUsageEvents: () => false,
  createPlanner: (input) => {
    const characters = countCharacters(input.body.input as string);
    // A model billed by tokens alone is asked for its events, which carry the usage, and the
    // client still gets the audio it asked for: no format makes speech free.
    const mode: SpeechRelayMode =
      input.body.stream_format === 'sse'
        ? 'sse'
        : input.price.perMillionCharacters === null
          ? 'sse-to-audio'
          : 'audio';
    const format = typeof input.body.response_format === 'string' ? input.body.response_format : 'mp3';
    return async (channel) => {
      if (!upstreamServes(channel, 'openai-audio-speech', input.model)) return undefined;
      const upstreamModel = mapUpstreamModel(channel, input.model);
      const unchanged = upstreamModel === input.body.model && mode !== 'sse-to-audio';
      const body = unchanged
        ? input.body
        : { ...input.body, model: upstreamModel, ...(mode === 'sse-to-audio' && { stream_format: 'sse' }) };
      return {
        mode: 'passthrough',
        endpoint: 'openai-audio-speech',
        upstreamModel,
        body,
        bodyBytes: unchanged ? input.bodyBytes : undefined,
        extraHeaders: {},
        query: '',
        reply: () => {
          throw new Error('speech is always relayed as a stream');
        },
        stream: () => speechStream({ characters, mode }),
        streamContentType: (upstream) =>
          mode === 'sse-to-audio' ? (SPEECH_CONTENT_TYPES[format] ?? 'application/octet-stream') : upstream,
      };
    };
  },
};

/** https://platform.openai.com/docs/api-reference/audio/createSpeech#audio-createspeech-response_format */
const SPEECH_CONTENT_TYPES: Readonly<Record<string, string>> = {
  mp3: 'audio/mpeg',
  opus: 'audio/opus',
  aac: 'audio/aac',
  flac: 'audio/flac',
  wav: 'audio/wav',
  pcm: 'audio/pcm',
};
