import type { FakeEndpoint } from './fake-endpoint.js';
import { asRecord } from './fake-upstream.js';
import { checkAudioForm, checkFormNumber } from './openai-audio-form.js';
import { checkEnum } from './openai-request-problems.js';
import { transcriptFile, transcriptSegments, type TranscriptFile } from './openai-transcript-formats.js';

/** `TranslationCreateParams` in openai/resources/audio/translations.d.ts. */
const FIELDS = new Set(['file', 'model', 'prompt', 'response_format', 'temperature']);
const FORMATS = ['json', 'text', 'srt', 'verbose_json', 'vtt'];

/**
 * `POST /v1/audio/translations` (https://platform.openai.com/docs/api-reference/audio/createTranslation):
 * the English text in the asked format, `{ text }` by default, without usage; only the Whisper
 * models translate.
 */
export const openaiTranslations: FakeEndpoint = {
  validate(body, request) {
    const problem = checkAudioForm(request, FIELDS);
    if (problem) return problem;
    const form = asRecord(body);
    const model = String(form.model);
    if (!model.startsWith('whisper'))
      return {
        message: `Model '${model}' does not support translations.`,
        param: 'model',
        code: 'invalid_value',
      };
    return (
      checkEnum(form.response_format, 'response_format', FORMATS) ??
      checkFormNumber(form.temperature, 'temperature', { min: 0, max: 1 })
    );
  },
  reply(request, content) {
    const form = asRecord(request.body);
    const format = typeof form.response_format === 'string' ? form.response_format : 'json';
    const seconds = content.usage.audioSeconds ?? 0;
    if (format === 'text' || format === 'srt' || format === 'vtt')
      return {
        kind: 'bytes',
        contentType: 'text/plain; charset=utf-8',
        chunks: [transcriptFile(format as TranscriptFile, content.text, seconds)],
      };
    if (format === 'verbose_json')
      return {
        kind: 'json',
        body: {
          task: 'translate',
          language: 'english',
          duration: seconds,
          text: content.text,
          segments: transcriptSegments(content.text, seconds),
        },
      };
    return { kind: 'json', body: { text: content.text } };
  },
};
