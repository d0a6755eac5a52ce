import OpenAI, { toFile } from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { DEFAULT_AUDIO_BYTES, fakeSpeechAudio, fakeWavFile } from '../fakes/fake-audio-bytes.js';
import { startFakeOpenAI, type FakeOpenAI } from '../fakes/fake-openai.js';

/**
 * The OpenAI fake's audio endpoints, proved with the official SDK pointed straight at them: what
 * the SDK sends is taken (multipart forms byte for byte), what it parses is what the fake answers,
 * and what the real API refuses is refused.
 */

const apiKey = 'sk-validation';
let fake: FakeOpenAI;
let openai: OpenAI;

beforeAll(async () => {
  fake = await startFakeOpenAI({ apiKey });
  openai = new OpenAI({ apiKey, baseURL: `${fake.origin}/v1`, maxRetries: 0 });
});
afterAll(() => fake.close());
beforeEach(() => fake.clear());

/** The SDK's error for a refused call, or a failure when the call went through. */
async function refusal(call: Promise<unknown>): Promise<InstanceType<typeof OpenAI.APIError>> {
  const error = await call.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(OpenAI.APIError);
  return error as InstanceType<typeof OpenAI.APIError>;
}

/** The `data:` payloads of an SSE body. */
function sseData(text: string): Record<string, unknown>[] {
  return text
    .split('\n\n')
    .filter((block) => block.startsWith('data: '))
    .map((block) => JSON.parse(block.slice('data: '.length)) as Record<string, unknown>);
}

describe('speech', () => {
  test.each([
    ['mp3', 'audio/mpeg'],
    ['opus', 'audio/opus'],
    ['aac', 'audio/aac'],
    ['flac', 'audio/flac'],
    ['wav', 'audio/wav'],
    ['pcm', 'audio/pcm'],
  ] as const)('%s: the format’s bytes under %s', async (format, contentType) => {
    const response = await openai.audio.speech.create({
      model: 'gpt-4o-mini-tts',
      input: 'Hello there.',
      voice: 'coral',
      instructions: 'Speak cheerfully.',
      response_format: format,
      speed: 1.25,
    });
    expect(response.headers.get('content-type')).toBe(contentType);
    expect(Buffer.from(await response.arrayBuffer())).toEqual(fakeSpeechAudio(format, DEFAULT_AUDIO_BYTES));
    const [request] = fake.requests;
    expect(request?.refused).toBeUndefined();
    expect(request?.headers.accept).toBe('application/octet-stream');
    expect(request?.body).toEqual({
      model: 'gpt-4o-mini-tts',
      input: 'Hello there.',
      voice: 'coral',
      instructions: 'Speak cheerfully.',
      response_format: format,
      speed: 1.25,
    });
  });

  test('mp3 by default; a custom voice by id', async () => {
    const response = await openai.audio.speech.create({
      model: 'tts-1',
      input: 'Hi',
      voice: { id: 'voice_1234' },
    });
    expect(response.headers.get('content-type')).toBe('audio/mpeg');
    expect(Buffer.from(await response.arrayBuffer())).toEqual(fakeSpeechAudio('mp3', DEFAULT_AUDIO_BYTES));
  });

  test('1 MB sent slowly arrives in many chunks, byte for byte', async () => {
    fake.script({ type: 'reply', audioBytes: 1_048_576, audioChunkBytes: 65_536, chunkDelayMs: 20 });
    const started = performance.now();
    const response = await openai.audio.speech.create({ model: 'tts-1-hd', input: 'Long', voice: 'onyx' });
    const received: Buffer[] = [];
    let firstChunkAt = 0;
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
      firstChunkAt ||= performance.now() - started;
      received.push(Buffer.from(chunk));
    }
    const elapsed = performance.now() - started;
    // `equals`, not `toEqual`: a deep comparison of 1 MB blocks the loop for seconds.
    expect(Buffer.concat(received).equals(fakeSpeechAudio('mp3', 1_048_576))).toBe(true);
    expect(received.length).toBeGreaterThan(1);
    expect(elapsed).toBeGreaterThanOrEqual(15 * 20 - 5);
    expect(firstChunkAt).toBeLessThan(elapsed / 2);
  });

  test('stream_format "sse": the audio as speech.audio.delta events, then usage', async () => {
    fake.script({ type: 'reply', usage: { inputTokens: 9, outputTokens: 140 }, audioChunkBytes: 1000 });
    const response = await openai.audio.speech.create({
      model: 'gpt-4o-mini-tts',
      input: 'Hello there.',
      voice: 'alloy',
      response_format: 'pcm',
      stream_format: 'sse',
    });
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const events = sseData(await response.text());
    const deltas = events.filter((event) => event.type === 'speech.audio.delta');
    expect(deltas).toHaveLength(Math.ceil(DEFAULT_AUDIO_BYTES / 1000));
    const audio = Buffer.concat(deltas.map((event) => Buffer.from(String(event.audio), 'base64')));
    expect(audio).toEqual(fakeSpeechAudio('pcm', DEFAULT_AUDIO_BYTES));
    expect(events.at(-1)).toEqual({
      type: 'speech.audio.done',
      usage: { input_tokens: 9, output_tokens: 140, total_tokens: 149 },
    });
  });

  test.each([
    ['no voice', { model: 'tts-1', input: 'x' }, "Missing required parameter: 'voice'.", 'voice'],
    ['no input', { model: 'tts-1', voice: 'alloy' }, "Missing required parameter: 'input'.", 'input'],
    ['no model', { input: 'x', voice: 'alloy' }, "Missing required parameter: 'model'.", 'model'],
    [
      '4097 characters',
      { model: 'tts-1', input: 'x'.repeat(4097), voice: 'alloy' },
      'maximum length 4096',
      'input',
    ],
    [
      'speed 4.5',
      { model: 'tts-1', input: 'x', voice: 'alloy', speed: 4.5 },
      'Expected a value <= 4',
      'speed',
    ],
    ['an unknown voice', { model: 'tts-1', input: 'x', voice: 'robot' }, "Invalid value: 'robot'.", 'voice'],
    [
      'ogg',
      { model: 'tts-1', input: 'x', voice: 'alloy', response_format: 'ogg' },
      "'ogg'",
      'response_format',
    ],
    [
      'sse from tts-1',
      { model: 'tts-1', input: 'x', voice: 'alloy', stream_format: 'sse' },
      "stream_format 'sse'",
      'stream_format',
    ],
    [
      'an unknown member',
      { model: 'tts-1', input: 'x', voice: 'alloy', pitch: 2 },
      "Unknown parameter: 'pitch'.",
      'pitch',
    ],
  ])('refuses %s', async (_, body, message, param) => {
    const error = await refusal(openai.audio.speech.create(body as never));
    expect(error.status).toBe(400);
    expect(error.message).toContain(message);
    expect(error.param).toBe(param);
  });

  test('a wrong key is a 401', async () => {
    const stranger = new OpenAI({ apiKey: 'sk-wrong', baseURL: `${fake.origin}/v1`, maxRetries: 0 });
    const error = await refusal(stranger.audio.speech.create({ model: 'tts-1', input: 'x', voice: 'alloy' }));
    expect(error).toBeInstanceOf(OpenAI.AuthenticationError);
    expect(error.status).toBe(401);
  });
});

describe('transcriptions', () => {
  const wav = fakeWavFile(1.5);

  test('gpt-4o-transcribe json: text, logprobs and token usage; the form arrives byte for byte', async () => {
    fake.script({
      type: 'reply',
      text: 'Bonjour tout le monde.',
      usage: { inputTokens: 40, inputAudioTokens: 31 },
    });
    const transcription = await openai.audio.transcriptions.create({
      file: await toFile(wav, 'speech.wav', { type: 'audio/wav' }),
      model: 'gpt-4o-transcribe',
      language: 'fr',
      prompt: 'A greeting.',
      temperature: 0.2,
      include: ['logprobs'],
      chunking_strategy: { type: 'server_vad', threshold: 0.6 },
    });
    expect(transcription.text).toBe('Bonjour tout le monde.');
    expect(transcription.logprobs?.map((logprob) => logprob.token).join('')).toBe('Bonjour tout le monde.');
    expect(transcription.usage).toEqual({
      type: 'tokens',
      input_tokens: 40,
      input_token_details: { text_tokens: 9, audio_tokens: 31 },
      output_tokens: 12,
      total_tokens: 52,
    });
    const [request] = fake.requests;
    expect(request?.refused).toBeUndefined();
    expect(request?.multipart?.files).toEqual([
      { name: 'file', filename: 'speech.wav', contentType: 'audio/wav', bytes: wav },
    ]);
    expect(request?.body).toEqual({
      model: 'gpt-4o-transcribe',
      language: 'fr',
      prompt: 'A greeting.',
      temperature: '0.2',
      'include[]': ['logprobs'],
      'chunking_strategy[type]': 'server_vad',
      'chunking_strategy[threshold]': '0.6',
    });
  });

  test('every byte value and a non-ASCII file name reach the fake as sent', async () => {
    const bytes = Buffer.from(Array.from({ length: 4096 }, (_, index) => (index * 7) % 256));
    await openai.audio.transcriptions.create({
      file: await toFile(bytes, 'réunion été.mp3', { type: 'audio/mpeg' }),
      model: 'whisper-1',
    });
    expect(fake.requests[0]?.multipart?.files[0]).toMatchObject({
      filename: 'réunion été.mp3',
      contentType: 'audio/mpeg',
      bytes,
    });
  });

  test('whisper-1 json: usage by duration', async () => {
    fake.script({ type: 'reply', usage: { audioSeconds: 7 } });
    const transcription = await openai.audio.transcriptions.create({
      file: await toFile(wav, 'speech.wav'),
      model: 'whisper-1',
    });
    expect(transcription).toEqual({
      text: 'Hello from fake OpenAI.',
      usage: { type: 'duration', seconds: 7 },
    });
  });

  test('text, srt and vtt as plain text', async () => {
    const file = await toFile(wav, 'speech.wav');
    const text = await openai.audio.transcriptions.create({
      file,
      model: 'whisper-1',
      response_format: 'text',
    });
    expect(text).toBe('Hello from fake OpenAI.\n');
    const srt = await openai.audio.transcriptions.create({
      file,
      model: 'whisper-1',
      response_format: 'srt',
    });
    expect(srt).toBe('1\n00:00:00,000 --> 00:00:03,000\nHello from fake OpenAI.\n\n');
    const vtt = await openai.audio.transcriptions.create({
      file,
      model: 'whisper-1',
      response_format: 'vtt',
    });
    expect(vtt).toBe('WEBVTT\n\n00:00:00.000 --> 00:00:03.000\nHello from fake OpenAI.\n\n');
    const gpt = await openai.audio.transcriptions.create({
      file,
      model: 'gpt-4o-mini-transcribe',
      response_format: 'text',
    });
    expect(gpt).toBe('Hello from fake OpenAI.\n');
  });

  test('verbose_json: language, duration, segments, words and usage', async () => {
    const verbose = await openai.audio.transcriptions.create({
      file: await toFile(wav, 'speech.wav'),
      model: 'whisper-1',
      language: 'de',
      response_format: 'verbose_json',
      timestamp_granularities: ['word', 'segment'],
    });
    expect(verbose).toMatchObject({
      task: 'transcribe',
      language: 'german',
      duration: 3,
      text: 'Hello from fake OpenAI.',
      usage: { type: 'duration', seconds: 3 },
    });
    expect(verbose.segments?.[0]).toMatchObject({
      id: 0,
      start: 0,
      end: 3,
      text: ' Hello from fake OpenAI.',
    });
    expect(verbose.words?.map((word) => word.word)).toEqual(['Hello', 'from', 'fake', 'OpenAI.']);
    expect(fake.requests[0]?.body).toMatchObject({ 'timestamp_granularities[]': ['word', 'segment'] });
  });

  test('diarized_json: speaker segments', async () => {
    const diarized = await openai.audio.transcriptions.create({
      file: await toFile(wav, 'speech.wav'),
      model: 'gpt-4o-transcribe-diarize',
      response_format: 'diarized_json',
      chunking_strategy: 'auto',
    });
    expect(diarized).toMatchObject({
      text: 'Hello from fake OpenAI.',
      segments: [{ type: 'transcript.text.segment', speaker: 'A', start: 0, end: 3 }],
      usage: { type: 'tokens' },
    });
  });

  test('stream: transcript.text.delta events, then done with usage', async () => {
    fake.script({ type: 'reply', usage: { inputTokens: 30, inputAudioTokens: 30, outputTokens: 6 } });
    const stream = await openai.audio.transcriptions.create({
      file: await toFile(wav, 'speech.wav'),
      model: 'gpt-4o-mini-transcribe',
      stream: true,
    });
    const events = [];
    for await (const event of stream) events.push(event);
    expect(fake.requests[0]?.body).toMatchObject({ stream: 'true' });
    const deltas = events.filter((event) => event.type === 'transcript.text.delta');
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.map((event) => event.delta).join('')).toBe('Hello from fake OpenAI.');
    expect(events.at(-1)).toEqual({
      type: 'transcript.text.done',
      text: 'Hello from fake OpenAI.',
      usage: {
        type: 'tokens',
        input_tokens: 30,
        input_token_details: { text_tokens: 0, audio_tokens: 30 },
        output_tokens: 6,
        total_tokens: 36,
      },
    });
  });

  test('omitUsage leaves usage out', async () => {
    fake.script({ type: 'reply', omitUsage: true });
    const transcription = await openai.audio.transcriptions.create({
      file: await toFile(wav, 'speech.wav'),
      model: 'gpt-4o-transcribe',
    });
    expect(transcription).toEqual({ text: 'Hello from fake OpenAI.' });
  });

  test.each([
    [{ model: 'whisper-1', stream: true }, "Streaming is not supported for model 'whisper-1'.", 'stream'],
    [
      { model: 'gpt-4o-transcribe', response_format: 'verbose_json' },
      "response_format 'verbose_json' is not compatible with model 'gpt-4o-transcribe'. Use 'json' or 'text' instead.",
      'response_format',
    ],
    [
      { model: 'whisper-1', response_format: 'diarized_json' },
      "response_format 'diarized_json'",
      'response_format',
    ],
    [{ model: 'whisper-1', temperature: 1.5 }, 'Expected a value <= 1', 'temperature'],
    [
      { model: 'whisper-1', timestamp_granularities: ['sentence'] },
      "Invalid value: 'sentence'.",
      'timestamp_granularities',
    ],
    [{ model: 'gpt-4o-transcribe', include: ['tokens'] }, "Invalid value: 'tokens'.", 'include'],
    [{ model: 'gpt-4o' }, "Model 'gpt-4o' is not a transcription model.", 'model'],
    [{}, "Missing required parameter: 'model'.", 'model'],
  ])('refuses %j', async (fields, message, param) => {
    const file = await toFile(wav, 'speech.wav');
    const error = await refusal(openai.audio.transcriptions.create({ file, ...fields } as never));
    expect(error.status).toBe(400);
    expect(error.message).toContain(message);
    expect(error.param).toBe(param);
    expect(fake.requests[0]?.refused?.message).toContain(message);
  });

  test('refuses a file whose name is not an audio format, and a wrong key', async () => {
    const text = await refusal(
      openai.audio.transcriptions.create({ file: await toFile(wav, 'notes.txt'), model: 'whisper-1' }),
    );
    expect(text.status).toBe(400);
    expect(text.message).toContain('Invalid file format. Supported formats:');
    const stranger = new OpenAI({ apiKey: 'sk-wrong', baseURL: `${fake.origin}/v1`, maxRetries: 0 });
    const unauthorized = await refusal(
      stranger.audio.transcriptions.create({ file: await toFile(wav, 'speech.wav'), model: 'whisper-1' }),
    );
    expect(unauthorized).toBeInstanceOf(OpenAI.AuthenticationError);
  });

  test('refuses bodies no SDK sends: JSON, no boundary, a cut form, no file part, a file as text', async () => {
    const post = (body: string, contentType?: string) =>
      fetch(`${fake.origin}/v1/audio/transcriptions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${apiKey}`, ...(contentType && { 'content-type': contentType }) },
        body,
      }).then(async (response) => ({
        status: response.status,
        error: ((await response.json()) as any).error,
      }));
    const json = await post(JSON.stringify({ model: 'whisper-1' }), 'application/json');
    expect(json).toMatchObject({ status: 400, error: { code: 'unsupported_content_type' } });
    const noBoundary = await post('--x\r\n', 'multipart/form-data');
    expect(noBoundary).toMatchObject({
      status: 400,
      error: { message: expect.stringContaining('Boundary') },
    });
    const part = (name: string, value: string, filename?: string) =>
      `--b\r\nContent-Disposition: form-data; name="${name}"${filename ? `; filename="${filename}"` : ''}\r\n\r\n${value}\r\n`;
    const cut = await post(
      `${part('model', 'whisper-1')}--b\r\nContent-Disposition: form-data; name="fi`,
      'multipart/form-data; boundary=b',
    );
    expect(cut.status).toBe(400);
    const noFile = await post(`${part('model', 'whisper-1')}--b--\r\n`, 'multipart/form-data; boundary=b');
    expect(noFile).toMatchObject({
      status: 400,
      error: { param: 'file', code: 'missing_required_parameter' },
    });
    const asText = await post(
      `${part('model', 'whisper-1')}${part('file', 'abc')}--b--\r\n`,
      'multipart/form-data; boundary=b',
    );
    expect(asText).toMatchObject({ status: 400, error: { param: 'file', code: 'invalid_type' } });
    const good = await post(
      `${part('model', 'whisper-1')}${part('file', 'RIFF', 'a.wav')}--b--\r\n`,
      'multipart/form-data; boundary=b',
    );
    expect(good.status).toBe(200);
  });
});

describe('translations', () => {
  const file = () => toFile(fakeWavFile(2), 'rede.wav', { type: 'audio/wav' });

  test('json, text and verbose_json', async () => {
    const json = await openai.audio.translations.create({
      file: await file(),
      model: 'whisper-1',
      prompt: 'A talk.',
    });
    expect(json).toEqual({ text: 'Hello from fake OpenAI.' });
    const text = await openai.audio.translations.create({
      file: await file(),
      model: 'whisper-1',
      response_format: 'text',
    });
    expect(text).toBe('Hello from fake OpenAI.\n');
    const verbose = await openai.audio.translations.create({
      file: await file(),
      model: 'whisper-1',
      response_format: 'verbose_json',
      temperature: 0,
    });
    expect(verbose).toMatchObject({
      task: 'translate',
      language: 'english',
      duration: 3,
      text: 'Hello from fake OpenAI.',
    });
    expect(fake.requests[0]?.multipart?.files[0]?.filename).toBe('rede.wav');
  });

  test.each([
    [{ model: 'gpt-4o-transcribe' }, "Model 'gpt-4o-transcribe' does not support translations.", 'model'],
    [
      { model: 'whisper-1', response_format: 'diarized_json' },
      "Invalid value: 'diarized_json'.",
      'response_format',
    ],
    [{ model: 'whisper-1', language: 'fr' }, "Unknown parameter: 'language'.", 'language'],
  ])('refuses %j', async (fields, message, param) => {
    const error = await refusal(openai.audio.translations.create({ file: await file(), ...fields } as never));
    expect(error.status).toBe(400);
    expect(error.message).toContain(message);
    expect(error.param).toBe(param);
  });
});
