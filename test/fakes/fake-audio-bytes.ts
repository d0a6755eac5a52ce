/**
 * Deterministic audio bytes for the fakes and the tests that check them: the same format and size
 * give the same bytes, so a test can compare what a client received with what the fake sent.
 */

export type SpeechFormat = 'mp3' | 'opus' | 'aac' | 'flac' | 'wav' | 'pcm';

/** https://platform.openai.com/docs/api-reference/audio/createSpeech#audio-createspeech-response_format */
export const SPEECH_CONTENT_TYPES: Readonly<Record<SpeechFormat, string>> = {
  mp3: 'audio/mpeg',
  opus: 'audio/opus',
  aac: 'audio/aac',
  flac: 'audio/flac',
  wav: 'audio/wav',
  pcm: 'audio/pcm',
};

/** What an audio reply holds unless a step says otherwise: 100 ms of 24 kHz audio, in four chunks. */
export const DEFAULT_AUDIO_BYTES = 4800;
export const DEFAULT_AUDIO_CHUNK_BYTES = 1200;

/** OpenAI's speech audio: 24 kHz, 16-bit, mono. */
const SPEECH_SAMPLE_RATE = 24_000;

/** Each format's opening bytes, so a sniffer sees the format the reply claims. */
const MAGIC: Readonly<Record<Exclude<SpeechFormat, 'wav' | 'pcm'>, number[]>> = {
  mp3: [0x49, 0x44, 0x33, 0x04, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00], // an empty ID3v2.4 tag
  opus: [0x4f, 0x67, 0x67, 0x53], // "OggS"
  aac: [0xff, 0xf1], // ADTS sync word
  flac: [0x66, 0x4c, 0x61, 0x43], // "fLaC"
};

/**
 * `size` bytes of speech in `format`: the format's header (a complete WAV header whose sizes
 * match; the leading bytes of the others), then a fixed byte pattern. `pcm` is the pattern alone.
 */
export function fakeSpeechAudio(format: SpeechFormat, size: number): Buffer {
  const audio = Buffer.alloc(size);
  for (let index = 0; index < size; index += 1) audio[index] = (index * 31 + 7) % 251;
  const header =
    format === 'wav'
      ? wavHeader(Math.max(0, size - 44), SPEECH_SAMPLE_RATE)
      : format === 'pcm'
        ? Buffer.alloc(0)
        : Buffer.from(MAGIC[format]);
  header.copy(audio, 0, 0, Math.min(header.length, size));
  return audio;
}

/** A valid PCM WAV file of silence, `seconds` long: an upload whose duration a reader can tell. */
export function fakeWavFile(seconds: number, sampleRate = 16_000): Buffer {
  const dataBytes = Math.round(seconds * sampleRate) * 2;
  return Buffer.concat([wavHeader(dataBytes, sampleRate), Buffer.alloc(dataBytes)]);
}

/** The 44-byte RIFF header of 16-bit mono PCM with `dataBytes` of samples. */
function wavHeader(dataBytes: number, sampleRate: number): Buffer {
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'ascii');
  header.writeUInt32LE(36 + dataBytes, 4);
  header.write('WAVEfmt ', 8, 'ascii');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20); // PCM
  header.writeUInt16LE(1, 22); // mono
  header.writeUInt32LE(sampleRate, 24);
  header.writeUInt32LE(sampleRate * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36, 'ascii');
  header.writeUInt32LE(dataBytes, 40);
  return header;
}

/** `bytes` cut into pieces of `size` (the last one shorter). */
export function splitBytes(bytes: Buffer, size: number): Buffer[] {
  const pieces: Buffer[] = [];
  for (let start = 0; start < bytes.length; start += size) pieces.push(bytes.subarray(start, start + size));
  return pieces.length > 0 ? pieces : [bytes];
}
