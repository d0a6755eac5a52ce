import { splitIntoDeltas } from './fake-upstream.js';

/**
 * A transcript in the shapes Whisper answers with: plain text, SubRip, WebVTT and the segments and
 * words of `verbose_json`. The fakes make one segment of the whole text, spanning the audio.
 * https://platform.openai.com/docs/api-reference/audio/verbose-json-object
 */

export type TranscriptFile = 'text' | 'srt' | 'vtt';

export function transcriptFile(format: TranscriptFile, text: string, seconds: number): string {
  switch (format) {
    case 'text':
      return `${text}\n`;
    case 'srt':
      return `1\n${clock(0, ',')} --> ${clock(seconds, ',')}\n${text}\n\n`;
    case 'vtt':
      return `WEBVTT\n\n${clock(0, '.')} --> ${clock(seconds, '.')}\n${text}\n\n`;
  }
}

/** `TranscriptionSegment`s: the fakes' one segment. */
export function transcriptSegments(text: string, seconds: number) {
  return [
    {
      id: 0,
      seek: 0,
      start: 0,
      end: seconds,
      text: ` ${text}`,
      tokens: splitIntoDeltas(text).map((_, index) => 50364 + index),
      temperature: 0,
      avg_logprob: -0.25,
      compression_ratio: 1.1,
      no_speech_prob: 0.01,
    },
  ];
}

/** `TranscriptionWord`s: the words share the audio's length evenly. */
export function transcriptWords(text: string, seconds: number) {
  const words = text.split(/\s+/).filter(Boolean);
  const step = words.length > 0 ? seconds / words.length : 0;
  return words.map((word, index) => ({
    word,
    start: round(index * step),
    end: round((index + 1) * step),
  }));
}

/** The language Whisper reports, by name: `en` -> `english`. */
export function languageName(code: unknown): string {
  if (typeof code !== 'string' || code === '') return 'english';
  try {
    return (new Intl.DisplayNames(['en'], { type: 'language' }).of(code) ?? code).toLowerCase();
  } catch {
    return code;
  }
}

/** `00:00:03,000` (SubRip) or `00:00:03.000` (WebVTT). */
function clock(seconds: number, separator: ',' | '.'): string {
  const milliseconds = Math.round(seconds * 1000);
  const pad = (value: number, width = 2) => String(value).padStart(width, '0');
  const hours = Math.floor(milliseconds / 3_600_000);
  const minutes = Math.floor(milliseconds / 60_000) % 60;
  const wholeSeconds = Math.floor(milliseconds / 1000) % 60;
  return `${pad(hours)}:${pad(minutes)}:${pad(wholeSeconds)}${separator}${pad(milliseconds % 1000, 3)}`;
}

function round(value: number): number {
  return Math.round(value * 100) / 100;
}
