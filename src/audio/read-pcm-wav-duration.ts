import type { FileHandle } from 'node:fs/promises';
import { countWavSampleBytes } from './count-wav-sample-bytes.js';

/** Honest files put `fmt ` among their first few chunks. */
const MAX_CHUNKS = 16;
/** Format tags whose every sample frame is `blockAlign` bytes: PCM, IEEE float, A-law, mu-law. */
const FIXED_FRAME_FORMATS = new Set([0x0001, 0x0003, 0x0006, 0x0007]);
const WAVE_FORMAT_EXTENSIBLE = 0xfffe;

/**
 * The duration of a RIFF/WAVE file of fixed-size sample frames, read on the spot: the sample
 * bytes it holds (`countWavSampleBytes`) over the bytes a second takes. Such a file needs no
 * parser, and no worker thread (tens of MB each). `undefined` for any other file, which then goes
 * to the parser. Ref: https://www.mmsp.ece.mcgill.ca/Documents/AudioFormats/WAVE/WAVE.html
 */
export async function readPcmWavDuration(file: FileHandle, size: number): Promise<number | undefined> {
  if (size < 12) return undefined;
  const { buffer: riff } = await file.read({ buffer: Buffer.alloc(12), position: 0 });
  if (riff.toString('latin1', 0, 4) !== 'RIFF' || riff.toString('latin1', 8, 12) !== 'WAVE') return undefined;
  const format = await readFormatChunk(file, size);
  if (!format) return undefined;
  const sampleBytes = await countWavSampleBytes(file, size);
  if (sampleBytes === undefined) return undefined;
  const seconds = Math.floor(sampleBytes / format.blockAlign) / format.sampleRate;
  return seconds > 0 ? seconds : undefined;
}

async function readFormatChunk(
  file: FileHandle,
  size: number,
): Promise<{ sampleRate: number; blockAlign: number } | undefined> {
  let position = 12;
  for (let chunks = 0; chunks < MAX_CHUNKS && size - position >= 8; chunks += 1) {
    const { buffer: header } = await file.read({ buffer: Buffer.alloc(8), position });
    const id = header.toString('latin1', 0, 4);
    const bytes = header.readUInt32LE(4);
    if (id === 'data') return undefined;
    if (id === 'fmt ') {
      if (bytes < 16 || size - position - 8 < 16) return undefined;
      const { buffer: fmt } = await file.read({
        buffer: Buffer.alloc(Math.min(bytes, 40)),
        position: position + 8,
      });
      return fixedFrameFormat(fmt);
    }
    position += 8 + bytes + (bytes % 2);
  }
  return undefined;
}

/** `WAVEFORMATEX` (and `WAVEFORMATEXTENSIBLE`'s sub-format) when its frames are of fixed size. */
function fixedFrameFormat(fmt: Buffer): { sampleRate: number; blockAlign: number } | undefined {
  let tag = fmt.readUInt16LE(0);
  // The sub-format GUID's first two bytes are the format tag it stands for.
  if (tag === WAVE_FORMAT_EXTENSIBLE) tag = fmt.length >= 26 ? fmt.readUInt16LE(24) : 0;
  const channels = fmt.readUInt16LE(2);
  const sampleRate = fmt.readUInt32LE(4);
  const blockAlign = fmt.readUInt16LE(12);
  const bitsPerSample = fmt.readUInt16LE(14);
  if (!FIXED_FRAME_FORMATS.has(tag) || channels === 0 || sampleRate === 0 || bitsPerSample === 0)
    return undefined;
  // A frame holds every channel's sample in whole bytes; a header saying less is not to be trusted.
  if (blockAlign < channels * Math.ceil(bitsPerSample / 8)) return undefined;
  return { sampleRate, blockAlign };
}
