import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, test, vi } from 'vitest';
import { readAudioDuration } from '../../src/audio/read-audio-duration.js';
import { makeWav } from '../helpers/make-wav.js';

const FIXTURES = path.resolve(import.meta.dirname, '../fixtures/audio');

let directory: string;
beforeAll(() => {
  directory = mkdtempSync(path.join(tmpdir(), 'audio-duration-'));
});
afterAll(() => rmSync(directory, { recursive: true, force: true }));
afterEach(() => vi.restoreAllMocks());

function fixture(name: string): Buffer {
  return readFileSync(path.join(FIXTURES, name));
}

/** Writes bytes to a fresh file, named like a spooled upload: no extension to go by. */
let written = 0;
function spool(bytes: Buffer | string, name = `upload-${(written += 1)}`): string {
  const file = path.join(directory, name);
  writeFileSync(file, bytes);
  return file;
}

// Tones made by test/fixtures/audio/make-fixtures.sh. Every reading errs long, never short.
describe.each([
  {
    file: 'tone-2s.mp3',
    seconds: 2,
    // Whole 576-sample frames, the encoder's delay and end padding included: +88 ms.
    tolerance: 0.09,
  },
  {
    file: 'tone-1.5s-vbr-no-xing.mp3',
    seconds: 1.5,
    // Every frame counted, as above: +84 ms. Without `duration: true` it would have no duration.
    tolerance: 0.09,
  },
  {
    file: 'tone-2s.m4a',
    seconds: 2,
    // AAC's 1024 priming samples (64 ms at 16 kHz) count, though the edit list hides them from players.
    tolerance: 0.064,
  },
  {
    file: 'tone-1.5s.ogg',
    seconds: 1.5,
    // The last page's granule position less the Opus pre-skip.
    tolerance: 0,
  },
  {
    file: 'tone-1s.flac',
    seconds: 1,
    // STREAMINFO's total samples.
    tolerance: 0,
  },
  {
    file: 'tone-1.5s.webm',
    seconds: 1.5,
    // The Segment's Duration includes Opus's 6.5 ms codec delay, in whole milliseconds: +8 ms.
    tolerance: 0.008,
  },
])('$file', ({ file, seconds, tolerance }) => {
  test(
    tolerance === 0 ? `lasts ${seconds} s exactly` : `lasts ${seconds} s, up to ${tolerance} s more`,
    async () => {
      const duration = await readAudioDuration(spool(fixture(file)));
      expect(duration).toBeGreaterThanOrEqual(seconds);
      // 1e-9 for floating point: 1.508 - 1.5 is 0.008000000000000007.
      expect(duration! - seconds).toBeLessThanOrEqual(tolerance + 1e-9);
    },
  );
});

test.each([
  { seconds: 2.5, sampleRate: 8000, channels: 1, bitsPerSample: 16 },
  { seconds: 1.25, sampleRate: 44_100, channels: 2, bitsPerSample: 16 },
  { seconds: 0.5, sampleRate: 22_050, channels: 1, bitsPerSample: 8 },
  { seconds: 3, sampleRate: 48_000, channels: 6, bitsPerSample: 24 },
  { seconds: 1, sampleRate: 96_000, channels: 2, bitsPerSample: 32 },
  { seconds: 0.001, sampleRate: 16_000, channels: 1, bitsPerSample: 16 },
] as const)(
  'a WAV of $seconds s at $sampleRate Hz, $channels channels, $bitsPerSample bits: exact',
  async (format) => {
    expect(await readAudioDuration(spool(makeWav(format)))).toBe(format.seconds);
  },
);

test('a WAV cut short lasts as long as the samples it holds, not as its header says', async () => {
  const wav = makeWav({ seconds: 2, sampleRate: 16_000, channels: 1, bitsPerSample: 16 });
  expect(await readAudioDuration(spool(wav.subarray(0, 44 + 16_000 * 2)))).toBe(1);
});

test('the bytes decide the format, not the extension or the hint', async () => {
  const wav = makeWav({ seconds: 1.5, sampleRate: 16_000, channels: 1, bitsPerSample: 16 });
  const hint = { mimeType: 'audio/mpeg', filename: 'speech.mp3' };
  expect(await readAudioDuration(spool(wav, 'speech.mp3'), hint)).toBe(1.5);
  expect(await readAudioDuration(spool(fixture('tone-1s.flac'), 'speech.mp3'), hint)).toBe(1);
});

test('the hint is used when the bytes cannot tell: an MP3 behind a block of junk', async () => {
  const file = spool(Buffer.concat([Buffer.alloc(200), fixture('tone-1.5s-vbr-no-xing.mp3')]));
  expect(await readAudioDuration(file)).toBeUndefined();
  expect(await readAudioDuration(file, { mimeType: 'audio/mpeg' })).toBeCloseTo(1.584, 9);
  expect(await readAudioDuration(file, { filename: 'speech.mp3' })).toBeCloseTo(1.584, 9);
  expect(await readAudioDuration(file, { mimeType: 'application/octet-stream' })).toBeUndefined();
});

test.each([
  ['an M4A cut in half', () => fixture('tone-2s.m4a').subarray(0, 2700)],
  ['a WebM cut in half', () => fixture('tone-1.5s.webm').subarray(0, 1650)],
  // music-metadata reports -0.0065 s: the Opus pre-skip, with no granule position to subtract it from.
  ['an Ogg file cut inside its first audio page', () => fixture('tone-1.5s.ogg').subarray(0, 300)],
  [
    'a WAV cut inside its header',
    () => makeWav({ seconds: 1, sampleRate: 8000, channels: 1, bitsPerSample: 16 }).subarray(0, 30),
  ],
  ['a FLAC file whose STREAMINFO is zeroed', () => fixture('tone-1s.flac').fill(0, 4, 200)],
  [
    'a WAV header with no samples',
    () => makeWav({ seconds: 0, sampleRate: 8000, channels: 1, bitsPerSample: 16 }),
  ],
  ['an empty file', () => Buffer.alloc(0)],
  ['a WebM holding only video', () => fixture('video-only-1.5s.webm')],
  ['a PNG image', () => Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex')],
])('%s has no duration', async (_name, bytes) => {
  const file = spool(bytes());
  expect(await readAudioDuration(file)).toBeUndefined();
  expect(await readAudioDuration(file, { mimeType: 'audio/mpeg', filename: 'speech.mp3' })).toBeUndefined();
});

test('a text file named .mp3 has no duration, even when the client says it is MP3', async () => {
  const file = spool('Meeting notes: nothing to transcribe here.\n'.repeat(100), 'notes.mp3');
  expect(await readAudioDuration(file)).toBeUndefined();
  expect(await readAudioDuration(file, { mimeType: 'audio/mpeg', filename: 'notes.mp3' })).toBeUndefined();
});

test('bytes that only look like MPEG frames give up at the time limit', async () => {
  // Unbounded, the parser would take far longer on 2 MB of 0xFF (1 MB: 13 s), keeping a warning per byte.
  const timeout = AbortSignal.timeout.bind(AbortSignal);
  vi.spyOn(AbortSignal, 'timeout').mockImplementation(() => timeout(200));
  const started = performance.now();
  expect(await readAudioDuration(spool(Buffer.alloc(2_000_000, 0xff)))).toBeUndefined();
  expect(performance.now() - started).toBeLessThan(5_000);
});

test('a hostile file is parsed off the event loop, which other requests keep', async () => {
  const limitMs = 2_000;
  const timeout = AbortSignal.timeout.bind(AbortSignal);
  vi.spyOn(AbortSignal, 'timeout').mockImplementation(() => timeout(limitMs));
  const file = spool(Buffer.alloc(25_000_000, 0xff));
  let longestGapMs = 0;
  let last = performance.now();
  const ticker = setInterval(() => {
    const now = performance.now();
    longestGapMs = Math.max(longestGapMs, now - last);
    last = now;
  }, 10);
  const started = performance.now();
  try {
    expect(await readAudioDuration(file)).toBeUndefined();
  } finally {
    clearInterval(ticker);
  }
  // On the event loop, music-metadata stalled it for 340 to 375 ms at a time on such a file; off
  // it, the gaps are the timers' own (under 40 ms here), with room left for a loaded machine.
  expect(longestGapMs).toBeLessThan(150);
  expect(performance.now() - started).toBeLessThan(limitMs + 3_000);
});

describe('a header that understates the duration does not lower the price', () => {
  test('an MP3 whose Xing header states 2 s, followed by a minute of frames', async () => {
    const frames = fixture('tone-1.5s-vbr-no-xing.mp3');
    const mp3 = Buffer.concat([fixture('tone-2s.mp3'), ...Array.from({ length: 40 }, () => frames)]);
    const duration = await readAudioDuration(spool(mp3));
    // MPEG-2 Layer III at 16 kHz: at most 160 kbit/s.
    const floor = (mp3.length * 8) / 160_000;
    expect(floor).toBeGreaterThan(14);
    expect(duration).toBeCloseTo(floor, 9);
  });

  test('a WAV whose data chunk declares fewer samples than it holds', async () => {
    const wav = makeWav({ seconds: 2, sampleRate: 16_000, channels: 1, bitsPerSample: 16 });
    wav.writeUInt32LE(16_000 * 2, 40);
    expect(await readAudioDuration(spool(wav))).toBe(2);
  });

  test('tags after the samples of a WAV are not samples', async () => {
    const wav = makeWav({ seconds: 1, sampleRate: 8000, channels: 1, bitsPerSample: 16 });
    const list = Buffer.alloc(8 + 4_000, 0x20);
    list.write('LIST', 0, 'ascii');
    list.writeUInt32LE(4_000, 4);
    expect(await readAudioDuration(spool(Buffer.concat([wav, list])))).toBe(1);
  });
});

test('a file that cannot be read at all is an error, not a file without a duration', async () => {
  await expect(readAudioDuration(path.join(directory, 'missing'))).rejects.toMatchObject({ code: 'ENOENT' });
  await expect(readAudioDuration(directory)).rejects.toMatchObject({ code: 'EISDIR' });
});
