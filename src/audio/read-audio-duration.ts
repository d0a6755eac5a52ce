import { open } from 'node:fs/promises';
import { importOnFirstUse } from '../load-on-first-use.js';

const musicMetadata = importOnFirstUse<typeof import('music-metadata')>('music-metadata');

/** What the client said the upload is: the multipart part's content type and file name. */
export interface AudioFileHint {
  mimeType?: string;
  filename?: string;
}

/**
 * Parsing runs on the event loop, and some files keep music-metadata busy: counting every frame of
 * a VBR MP3 without a Xing header (17 MB: 4 to 7 s), or bytes that only look like MPEG frames
 * (0xFF filler: 13 s for 1 MB, growing faster than the size, with a warning kept per byte). Past
 * this limit the file counts as one whose duration cannot be read.
 */
const PARSE_TIME_LIMIT_MS = 10_000;

/**
 * music-metadata parses what a chunk holds without yielding to the event loop, so the chunk size
 * bounds the stall other requests see: counting the frames of that 17 MB MP3 stalled them for up to
 * 53 ms with 4 KiB reads, 250 ms with the default 64 KiB.
 */
const READ_CHUNK_BYTES = 4096;

/** music-metadata could not tell the format from the bytes: the one case where the hint may help. */
type Parsed = number | undefined | 'format-unknown';

/**
 * The duration in seconds of the audio in a file, read from the file itself (WAV, MP3, M4A/MP4,
 * Ogg, FLAC, WebM), or `undefined` when it is not audio whose duration can be read: empty,
 * truncated or corrupt, another kind of file, or no duration above zero.
 *
 * The bytes decide the format, whatever the path's extension; the client's hint is used only when
 * the bytes cannot tell (an MP3 behind a block of junk). The file is read in small chunks, never
 * whole. Throws only when the file cannot be read at all (missing, not a file, no permission).
 */
export async function readAudioDuration(path: string, hint?: AudioFileHint): Promise<number | undefined> {
  const signal = AbortSignal.timeout(PARSE_TIME_LIMIT_MS);
  const byContent = await parseDuration({ path, signal });
  if (byContent !== 'format-unknown') return byContent;
  if (!hint) return undefined;
  const byHint = await parseDuration({ path, signal, hint });
  return byHint === 'format-unknown' ? undefined : byHint;
}

async function parseDuration(request: {
  path: string;
  signal: AbortSignal;
  hint?: AudioFileHint;
}): Promise<Parsed> {
  const { parseStream, CouldNotDetermineFileTypeError } = await musicMetadata();
  const file = await open(request.path);
  // Read through a handle, not by path: music-metadata picks the parser by the extension of a
  // stream's path before it looks at the bytes. Destroying the stream closes the handle.
  const stream = file.createReadStream({ highWaterMark: READ_CHUNK_BYTES, signal: request.signal });
  try {
    const { size } = await file.stat();
    const fileInfo = { size, mimeType: request.hint?.mimeType, path: request.hint?.filename };
    // `duration: true` makes it count the frames of an MP3 whose header does not state its length.
    const { format } = await parseStream(stream, fileInfo, { duration: true, skipCovers: true });
    if (format.hasAudio === false) return undefined;
    const seconds = format.duration;
    // A cut Ogg file reports minus the pre-skip (-0.0065 s); some headers state zero.
    return seconds !== undefined && Number.isFinite(seconds) && seconds > 0 ? seconds : undefined;
  } catch (error) {
    if (isFileSystemError(error)) throw error;
    return error instanceof CouldNotDetermineFileTypeError ? 'format-unknown' : undefined;
  } finally {
    stream.destroy();
  }
}

/** A failure to read the file, as opposed to a failure to make sense of its bytes. */
function isFileSystemError(error: unknown): boolean {
  return error instanceof Error && 'syscall' in error;
}
