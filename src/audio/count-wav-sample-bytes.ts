import type { FileHandle } from 'node:fs/promises';

/** Honest files hold a handful of chunks; past this many, the rest of the file counts as samples. */
const MAX_CHUNKS = 64;

/**
 * The bytes of a RIFF/WAVE file that decoders play as samples: from the start of the first `data`
 * chunk to the end of the file, less the chunks that follow it when they chain well-formed to the
 * end (LIST, id3 and other tags written after the samples), but counting any further `data` chunk
 * among them, which decoders also play. Bytes after a `data` chunk that do not parse as chunks
 * are samples its header does not declare, and count. `undefined` when the file has no `data`
 * chunk among its first chunks. Ref: https://www.mmsp.ece.mcgill.ca/Documents/AudioFormats/WAVE/WAVE.html
 */
export async function countWavSampleBytes(file: FileHandle, size: number): Promise<number | undefined> {
  let position = 12;
  for (let chunks = 0; chunks < MAX_CHUNKS; chunks += 1) {
    const header = await readChunkHeader(file, position, size);
    if (!header) return undefined;
    position += 8;
    if (header.id === 'data')
      return countFromData({ file, size, dataStart: position, dataBytes: header.bytes });
    position += paddedLength(header.bytes);
  }
  return undefined;
}

async function countFromData(request: {
  file: FileHandle;
  size: number;
  dataStart: number;
  dataBytes: number;
}): Promise<number> {
  const { file, size, dataStart } = request;
  const untilEnd = size - dataStart;
  let counted = request.dataBytes;
  let position = dataStart + paddedLength(request.dataBytes);
  for (let chunks = 0; chunks < MAX_CHUNKS; chunks += 1) {
    if (position > size) return untilEnd;
    // Fewer bytes than a chunk header left: a writer's stray padding, not samples.
    if (size - position < 8) return counted;
    const header = await readChunkHeader(file, position, size);
    if (!header) return untilEnd;
    if (header.id === 'data') counted += header.bytes;
    position += 8 + paddedLength(header.bytes);
  }
  return untilEnd;
}

/** A chunk's id and length, or `undefined` when its id is not four printable ASCII characters. */
async function readChunkHeader(
  file: FileHandle,
  position: number,
  size: number,
): Promise<{ id: string; bytes: number } | undefined> {
  if (size - position < 8) return undefined;
  const { buffer } = await file.read({ buffer: Buffer.alloc(8), position });
  if (!buffer.subarray(0, 4).every((byte) => byte >= 0x20 && byte <= 0x7e)) return undefined;
  return { id: buffer.toString('latin1', 0, 4), bytes: buffer.readUInt32LE(4) };
}

/** A chunk of odd length is followed by a pad byte. */
function paddedLength(bytes: number): number {
  return bytes + (bytes % 2);
}
