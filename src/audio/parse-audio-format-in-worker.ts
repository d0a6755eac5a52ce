import { Worker } from 'node:worker_threads';

/** What the client said the upload is: the multipart part's content type and file name. */
export interface AudioFileHint {
  mimeType?: string;
  filename?: string;
}

/** The fields of music-metadata's `IFormat` that the duration and its floor are read from. */
export interface ParsedAudioFormat {
  container?: string;
  codec?: string;
  sampleRate?: number;
  numberOfChannels?: number;
  bitsPerSample?: number;
  duration?: number;
  hasAudio?: boolean;
}

export type AudioFormatReport =
  | { kind: 'parsed'; format: ParsedAudioFormat; pictureBytes: number }
  // music-metadata could tell the format neither from the bytes nor from the hint.
  | { kind: 'format-unknown' }
  // Corrupt, truncated, too slow or too large to parse.
  | { kind: 'unreadable' };

/**
 * music-metadata parses what a chunk holds without yielding, and some files keep it busy for
 * seconds (0xFF filler that looks like MPEG frames, a VBR MP3 without a Xing header whose every
 * frame is counted): on the gateway's event loop that stalled every other request for 30 to 375
 * ms at a time. In a worker it stalls nothing, and a parse past the time limit is stopped outright
 * by terminating the worker.
 *
 * The bytes decide the format; the hint is tried only when they cannot (an MP3 behind a block of
 * junk). Read through a handle, not by path: music-metadata picks the parser by the extension of
 * a stream's path before it looks at the bytes. `duration: true` makes it count the frames of an
 * MP3 whose header does not state its length. Covers are read so that their bytes can be left out
 * of the duration floor.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { open } = require('node:fs/promises');
async function parse(musicMetadata, hint) {
  const file = await open(workerData.path);
  const stream = file.createReadStream();
  try {
    const { size } = await file.stat();
    const fileInfo = { size, mimeType: hint?.mimeType, path: hint?.filename };
    const { format, common } = await musicMetadata.parseStream(stream, fileInfo, { duration: true });
    const { container, codec, sampleRate, numberOfChannels, bitsPerSample, duration, hasAudio } = format;
    const pictureBytes = (common.picture ?? []).reduce((sum, picture) => sum + picture.data.length, 0);
    const parsed = { container, codec, sampleRate, numberOfChannels, bitsPerSample, duration, hasAudio };
    return { kind: 'parsed', format: parsed, pictureBytes };
  } catch (error) {
    const unknown = error instanceof musicMetadata.CouldNotDetermineFileTypeError;
    return { kind: unknown ? 'format-unknown' : 'unreadable' };
  } finally {
    stream.destroy();
  }
}
import(workerData.musicMetadata).then(async (musicMetadata) => {
  let report = await parse(musicMetadata);
  if (report.kind === 'format-unknown' && workerData.hint) report = await parse(musicMetadata, workerData.hint);
  parentPort.postMessage(report);
});
`;

/**
 * A worker per call rather than a kept one: a call comes once per transcription upload, and its
 * start (measured 80 to 145 ms on a loaded 2-CPU machine, plus 130 to 220 ms loading
 * music-metadata) is small beside the upload and the transcription that follow; a parse past the time limit can only
 * be stopped by terminating its worker, so a kept one would be restarted after every hostile file
 * anyway; and between uploads no idle thread holds music-metadata's heap. The worker stays
 * referenced while it runs: it is the work of a request in flight.
 */
const RESOURCE_LIMITS = { maxOldGenerationSizeMb: 64, maxYoungGenerationSizeMb: 16 };
/**
 * Workers parsing at once; further parses wait their turn. Each worker holds 40 to 45 MB of
 * resident memory (measured): ten uploads at once took 390 MB more with a worker each.
 */
const MAX_WORKERS = 2;
let running = 0;
const waiting: (() => void)[] = [];

/**
 * Parses the file at `path` in a worker, once one of the `MAX_WORKERS` is free; the worker is
 * terminated when it has run `timeoutMs` (the wait for a turn does not count).
 */
export async function parseAudioFormatInWorker(request: {
  path: string;
  hint?: AudioFileHint;
  timeoutMs: number;
}): Promise<AudioFormatReport> {
  // A finished parse hands its turn straight to the next one waiting.
  if (running < MAX_WORKERS) running += 1;
  else await new Promise<void>((resolve) => waiting.push(resolve));
  try {
    return await parseInWorker({ ...request, signal: AbortSignal.timeout(request.timeoutMs) });
  } finally {
    const next = waiting.shift();
    if (next) next();
    else running -= 1;
  }
}

function parseInWorker(request: {
  path: string;
  hint?: AudioFileHint | undefined;
  signal: AbortSignal;
}): Promise<AudioFormatReport> {
  const musicMetadata = import.meta.resolve('music-metadata');
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: { path: request.path, hint: request.hint, musicMetadata },
    resourceLimits: RESOURCE_LIMITS,
  });
  return new Promise<AudioFormatReport>((resolve) => {
    let ended = false;
    // The call ends once its worker is gone, so no thread outlives it still using a CPU.
    const end = (report: AudioFormatReport) => {
      if (ended) return;
      ended = true;
      request.signal.removeEventListener('abort', abort);
      void worker.terminate().then(() => resolve(report));
    };
    const abort = () => end({ kind: 'unreadable' });
    request.signal.addEventListener('abort', abort, { once: true });
    worker.once('message', (report: AudioFormatReport) => end(report));
    // Out of memory under the resource limits, or any other failure of the worker itself.
    worker.once('error', abort);
    worker.once('exit', abort);
  });
}
