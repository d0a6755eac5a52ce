/**
 * A PCM WAV file of silence, 16 kHz mono 16-bit (the RIFF header, a `fmt ` and a `data` chunk):
 * the channel test's audio. Ref: http://soundfile.sapp.org/doc/WaveFormat/
 */
export function silentWav(milliseconds: number): Buffer {
  const sampleRate = 16_000;
  const dataBytes = Math.round((sampleRate * milliseconds) / 1000) * 2;
  const wav = Buffer.alloc(44 + dataBytes);
  wav.write('RIFF', 0, 'ascii');
  wav.writeUInt32LE(wav.length - 8, 4);
  wav.write('WAVEfmt ', 8, 'ascii');
  wav.writeUInt32LE(16, 16);
  wav.writeUInt16LE(1, 20); // WAVE_FORMAT_PCM
  wav.writeUInt16LE(1, 22);
  wav.writeUInt32LE(sampleRate, 24);
  wav.writeUInt32LE(sampleRate * 2, 28);
  wav.writeUInt16LE(2, 32);
  wav.writeUInt16LE(16, 34);
  wav.write('data', 36, 'ascii');
  wav.writeUInt32LE(dataBytes, 40);
  return wav;
}
