import { exactTokens } from '../../billing/token-estimate.js';
import { GatewayError } from '../../errors/gateway-error.js';
import { mapUpstreamModel } from '../../providers/map-upstream-model.js';
import type { UpstreamEndpoint } from '../../providers/provider-descriptor.js';
import type { AudioForm } from '../../protocols/openai-audio/read-audio-form.js';
import { transcriptionReply, transcriptionStream } from '../../protocols/openai-audio/transcription-relay.js';
import {
  billableSeconds,
  estimatedAudioTokens,
  transcriptTokenCap,
} from '../../protocols/openai-audio/transcription-usage.js';
import { outgoingMultipart } from '../outgoing-multipart.js';
import { modelPrice, type RelayOperation } from '../relay-operation.js';
import { upstreamServes } from './json-plan.js';

/** A speech-to-text form as the relay carries it: its file, and the file's duration read beforehand. */
export class AudioUpload {
  constructor(
    readonly form: AudioForm,
    /** Seconds, read from the file; undefined when they cannot be read. */
    readonly seconds: number | undefined,
  ) {}
}

/**
 * The body of a speech-to-text request: its text fields as members (a name ending in `[]` gathers
 * its values), and the upload under `file`.
 */
export function speechToTextBody(upload: AudioUpload): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const { name, value } of upload.form.fields) {
    if (!name.endsWith('[]')) body[name] = value;
    else body[name] = [...((body[name] as string[] | undefined) ?? []), value];
  }
  body.file = upload;
  return body;
}

function uploadOf(body: Record<string, unknown>): AudioUpload {
  return body.file as AudioUpload;
}

/**
 * `POST /v1/audio/transcriptions` and `/translations` (admin-api section 14): the form re-encoded
 * for each attempt with the channel's model name, the file's bytes as they came; the answer in
 * whatever format the client asked, as it came. Billed on the file's duration for a model priced
 * per minute (one whose duration cannot be read is refused before anything is sent), otherwise
 * on the tokens the reply reports, or on tokens estimated from the duration.
 */
export function speechToTextOperation(endpoint: UpstreamEndpoint): RelayOperation {
  return {
    select: (candidates, model) => candidates.filter((channel) => upstreamServes(channel, endpoint, model)),
    isStream: (body) => body.stream === 'true',
    billingPrice: modelPrice,
    checkPrice: (body, price, model) => {
      if (price.perMinute !== null && uploadOf(body).seconds === undefined)
        throw new GatewayError('audio_duration_unreadable', { model });
    },
    preCharge: (body) => {
      const upload = uploadOf(body);
      const seconds = billableSeconds({ seconds: upload.seconds, bytes: upload.form.file.size });
      const audioTokens = estimatedAudioTokens(seconds);
      return {
        inputTokens: exactTokens(audioTokens),
        inputAudioTokens: audioTokens,
        outputCap: transcriptTokenCap(seconds),
        calls: 1,
        audioSeconds: seconds,
      };
    },
    forwardedHeaders: [],
    wantsUsageEvents: () => false,
    createPlanner: (input) => {
      const upload = uploadOf(input.body);
      const { file } = upload.form;
      const basis = { perMinute: input.price.perMinute !== null, seconds: upload.seconds, bytes: file.size };
      return async (channel) => {
        if (!upstreamServes(channel, endpoint, input.model)) return undefined;
        const upstreamModel = mapUpstreamModel(channel, input.model);
        const fields = upload.form.fields.map((field) =>
          field.name === 'model' ? { name: 'model', value: upstreamModel } : field,
        );
        return {
          mode: 'passthrough',
          endpoint,
          upstreamModel,
          body: input.body,
          multipart: outgoingMultipart(fields, { name: 'file', ...file, source: file.path }),
          repliesInText: true,
          extraHeaders: {},
          query: '',
          reply: () => transcriptionReply(basis),
          stream: () => transcriptionStream(basis),
        };
      };
    },
  };
}
