import { open } from 'node:fs/promises';
import { countWavSampleBytes } from './count-wav-sample-bytes.js';
import { maxAudioByteRate } from './max-audio-byte-rate.js';
import { readPcmWavDuration } from './read-pcm-wav-duration.js';
import {
  parseAudioFormatInWorker,
  type AudioFileHint,
  type ParsedAudioFormat,
} from './parse-audio-format-in-worker.js';

export type { AudioFileHint } from './parse-audio-format-in-worker.js';

/**
 * Some files keep music-metadata busy: counting every frame of a VBR MP3 without a Xing header
 * (17 MB: 4 to 7 s), or bytes that only look like MPEG frames (0xFF filler: 13 s for 1 MB, growing
 * faster than the size). Past this limit the file counts as one whose duration cannot be read.
 */
const PARSE_TIME_LIMIT_MS = 10_000;

/**
 * The duration in seconds of the audio in a file, read from the file itself (WAV, MP3, M4A/MP4,
 * Ogg, FLAC, WebM), or `undefined` when it is not audio whose duration can be read: empty,
 * truncated or corrupt, another kind of file, or no duration above zero.
 *
 * The bytes decide the format, whatever the path's extension; the client's hint is used only when
 * the bytes cannot tell (an MP3 behind a block of junk). The file is parsed in a worker thread,
 * never on the event loop. Throws only when the file cannot be read at all (missing, not a file,
 * no permission).
 *
 * Transcriptions are billed by this duration, and the duration comes from headers the client
 * writes: a 2 s Xing header in front of a minute of MP3 frames reads 2 s, and so do a FLAC
 * STREAMINFO, an MP4 mvhd, a WebM Duration or a WAV data or fact chunk that understate. So the
 * result is never less than the file's audio bytes at the most bytes per second its codec can
 * take: a forged header cannot take the price below that. Honest files are unaffected, their real
 * bitrate being below the maximum; the floor binds only bytes the header does not account for.
 *
 * No ceiling guards the other way (a truncated file whose header states its full length): Opus
 * with discontinuous transmission, FLAC and AAC store silence in almost no bytes, so only MP3 and
 * PCM have a least byte rate, and a PCM WAV's duration already comes from the bytes it holds.
 */
export async function readAudioDuration(path: string, hint?: AudioFileHint): Promise<number | undefined> {
  const file = await open(path);
  try {
    const stats = await file.stat();
    // A directory opens; reading it fails with the system's own error (EISDIR).
    if (!stats.isFile()) await file.read({ buffer: Buffer.alloc(1) });
    const { size } = stats;
    const wav = await readPcmWavDuration(file, size);
    if (wav !== undefined) return wav;
    const report = await parseAudioFormatInWorker({
      path,
      hint,
      timeoutMs: PARSE_TIME_LIMIT_MS,
    });
    if (report.kind !== 'parsed' || report.format.hasAudio === false) return undefined;
    const { format } = report;
    const seconds = format.duration;
    // A cut Ogg file reports minus the pre-skip (-0.0065 s); some headers state zero.
    if (seconds === undefined || !Number.isFinite(seconds) || seconds <= 0) return undefined;
    const audioBytes =
      format.container === 'WAVE'
        ? ((await countWavSampleBytes(file, size)) ?? size)
        : size - report.pictureBytes;
    return Math.max(seconds, durationFloor(format, audioBytes));
  } finally {
    await file.close();
  }
}

function durationFloor(format: ParsedAudioFormat, audioBytes: number): number {
  const byteRate = maxAudioByteRate(format);
  return byteRate ? Math.max(0, audioBytes) / byteRate : 0;
}
