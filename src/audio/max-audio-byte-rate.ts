import type { ParsedAudioFormat } from './parse-audio-format-in-worker.js';

/**
 * The most bytes per second of audio the detected codec can take, given what its headers say, or
 * `undefined` when nothing bounds it. Each bound errs high, so that a floor of bytes / rate never
 * exceeds the duration of an honest file.
 */
export function maxAudioByteRate(format: ParsedAudioFormat): number | undefined {
  const { codec = '', sampleRate, numberOfChannels: channels, bitsPerSample } = format;
  const mpeg = /^MPEG (1|2|2\.5) Layer (1|2|3)$/.exec(codec);
  if (mpeg) return maxMpegAudioBitRate(mpeg[1]!, mpeg[2]!) / 8;
  if (!sampleRate || !channels) return undefined;
  // WAV: PCM takes exactly this, each sample in whole bytes.
  // Ref: https://learn.microsoft.com/en-us/windows/win32/api/mmreg/ns-mmreg-waveformatex
  if ((codec === 'PCM' || codec === 'IEEE_FLOAT') && bitsPerSample)
    return sampleRate * channels * Math.ceil(bitsPerSample / 8);
  // FLAC never stores a frame larger than it would be verbatim; the tenth covers frame and subframe
  // headers, which stay under 5% from 256-sample blocks up. Ref: https://www.rfc-editor.org/rfc/rfc9639
  if (codec === 'FLAC' && bitsPerSample) return sampleRate * channels * (bitsPerSample / 8) * 1.1;
  // Opus: at most 510 kbit/s per stream (RFC 6716 §2.1.1), at most one stream per channel
  // (RFC 7845 §5.1.1), plus 2% for the Ogg pages or WebM blocks around the packets.
  if (/^opus$/i.test(codec)) return (510_000 / 8) * channels * 1.02;
  // AAC: a frame of 1024 samples fits the decoder's input buffer, 6144 bits per channel
  // (ISO/IEC 14496-3, decoder buffer requirements), so at most 6 bits per sample per channel. With SBR the core runs at half the reported rate: less still.
  if (/aac/i.test(codec)) return (6 * sampleRate * channels) / 8;
  // Anything else (Vorbis, ALAC, other WAV codecs): no more than 64-bit float PCM, the widest
  // sample any of these containers holds.
  return sampleRate * channels * 8;
}

/**
 * The highest bitrate_index of each MPEG audio version and layer, in bit/s: ISO/IEC 11172-3
 * 2.4.2.3 for MPEG-1, ISO/IEC 13818-3 2.4.2.3 for MPEG-2 (and the unofficial 2.5, which uses its
 * table). Ref: http://www.mp3-tech.org/programmer/frame_header.html
 */
function maxMpegAudioBitRate(version: string, layer: string): number {
  if (version === '1') return layer === '1' ? 448_000 : layer === '2' ? 384_000 : 320_000;
  return layer === '1' ? 256_000 : 160_000;
}
