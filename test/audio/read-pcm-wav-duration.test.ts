import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { readPcmWavDuration } from '../../src/audio/read-pcm-wav-duration.js';
import { makeWav } from '../helpers/make-wav.js';

let directory: string;
beforeAll(() => {
  directory = mkdtempSync(path.join(tmpdir(), 'pcm-wav-duration-'));
});
afterAll(() => rmSync(directory, { recursive: true, force: true }));

let written = 0;
async function durationOf(bytes: Buffer): Promise<number | undefined> {
  const file = path.join(directory, `upload-${(written += 1)}`);
  writeFileSync(file, bytes);
  const handle = await open(file);
  try {
    return await readPcmWavDuration(handle, bytes.length);
  } finally {
    await handle.close();
  }
}

/** `makeWav`'s file with another format tag (and, for WAVE_FORMAT_EXTENSIBLE, a 40-byte `fmt `). */
function withFormatTag(wav: Buffer, tag: number, subFormat?: number): Buffer {
  const copy = Buffer.from(wav);
  copy.writeUInt16LE(tag, 20);
  if (subFormat === undefined) return copy;
  const extension = Buffer.alloc(24);
  extension.writeUInt16LE(22, 0); // cbSize
  extension.writeUInt16LE(copy.readUInt16LE(34), 2); // valid bits per sample
  extension.writeUInt16LE(subFormat, 8); // the sub-format GUID's first two bytes
  const extended = Buffer.concat([copy.subarray(0, 36), extension, copy.subarray(36)]);
  extended.writeUInt32LE(40, 16);
  extended.writeUInt32LE(extended.length - 8, 4);
  return extended;
}

test.each([
  { seconds: 3, sampleRate: 16_000, channels: 1, bitsPerSample: 16 },
  { seconds: 1.5, sampleRate: 44_100, channels: 2, bitsPerSample: 24 },
  { seconds: 0.25, sampleRate: 8_000, channels: 1, bitsPerSample: 8 },
] as const)('PCM %o is read on the spot, from the samples it holds', async (format) => {
  expect(await durationOf(makeWav(format))).toBe(format.seconds);
});

test('IEEE float and WAVE_FORMAT_EXTENSIBLE PCM are read too', async () => {
  const wav = makeWav({ seconds: 2, sampleRate: 16_000, channels: 1, bitsPerSample: 32 });
  expect(await durationOf(withFormatTag(wav, 0x0003))).toBe(2);
  expect(await durationOf(withFormatTag(wav, 0xfffe, 0x0001))).toBe(2);
});

test('compressed WAV, a lying block size and anything but RIFF/WAVE are left to the parser', async () => {
  const wav = makeWav({ seconds: 1, sampleRate: 16_000, channels: 1, bitsPerSample: 16 });
  // IMA ADPCM: frames of varying sizes.
  expect(await durationOf(withFormatTag(wav, 0x0011))).toBeUndefined();
  expect(await durationOf(withFormatTag(wav, 0xfffe, 0x0011))).toBeUndefined();
  const zeroBlock = Buffer.from(wav);
  zeroBlock.writeUInt16LE(0, 32);
  expect(await durationOf(zeroBlock)).toBeUndefined();
  expect(await durationOf(Buffer.from('ID3\u0003 not a wav at all'))).toBeUndefined();
  expect(await durationOf(wav.subarray(0, 30))).toBeUndefined();
});

test('a WAV cut mid-frame counts whole frames only', async () => {
  const wav = makeWav({ seconds: 1, sampleRate: 16_000, channels: 2, bitsPerSample: 16 });
  expect(await durationOf(wav.subarray(0, wav.length - 2))).toBe(15_999 / 16_000);
});
