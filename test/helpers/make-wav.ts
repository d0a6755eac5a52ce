export interface WavFormat {
  seconds: number;
  sampleRate: number;
  channels: number;
  bitsPerSample: 8 | 16 | 24 | 32;
}

const HEADER_BYTES = 44;

/**
 * A PCM WAV file (RIFF header, `fmt ` and `data` chunks) holding a quiet 440 Hz tone on every
 * channel. `seconds` must be a whole number of sample frames, so that the duration is exact.
 * Ref: http://soundfile.sapp.org/doc/WaveFormat/
 */
export function makeWav({ seconds, sampleRate, channels, bitsPerSample }: WavFormat): Buffer {
  const frames = seconds * sampleRate;
  if (!Number.isInteger(frames)) throw new RangeError(`${seconds} s is not a whole number of frames`);
  const bytesPerSample = bitsPerSample / 8;
  const blockAlign = channels * bytesPerSample;
  const dataBytes = frames * blockAlign;
  // A RIFF chunk of odd length is followed by a pad byte.
  const wav = Buffer.alloc(HEADER_BYTES + dataBytes + (dataBytes % 2));
  wav.write('RIFF', 0, 'ascii');
  wav.writeUInt32LE(wav.length - 8, 4);
  wav.write('WAVE', 8, 'ascii');
  wav.write('fmt ', 12, 'ascii');
  wav.writeUInt32LE(16, 16);
  wav.writeUInt16LE(1, 20); // WAVE_FORMAT_PCM
  wav.writeUInt16LE(channels, 22);
  wav.writeUInt32LE(sampleRate, 24);
  wav.writeUInt32LE(sampleRate * blockAlign, 28);
  wav.writeUInt16LE(blockAlign, 32);
  wav.writeUInt16LE(bitsPerSample, 34);
  wav.write('data', 36, 'ascii');
  wav.writeUInt32LE(dataBytes, 40);

  const peak = 0.1 * (2 ** (bitsPerSample - 1) - 1);
  for (let frame = 0; frame < frames; frame += 1) {
    const sample = Math.round(peak * Math.sin((2 * Math.PI * 440 * frame) / sampleRate));
    for (let channel = 0; channel < channels; channel += 1) {
      const offset = HEADER_BYTES + frame * blockAlign + channel * bytesPerSample;
      // 8-bit PCM is unsigned, centred on 128; wider samples are signed.
      if (bitsPerSample === 8) wav.writeUInt8(sample + 128, offset);
      else wav.writeIntLE(sample, offset, bytesPerSample);
    }
  }
  return wav;
}
