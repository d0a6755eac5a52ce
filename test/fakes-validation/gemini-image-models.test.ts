import { ApiError, GoogleGenAI, Modality } from '@google/genai';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { startFakeGemini } from '../fakes/fake-gemini.js';
import type { FakeUpstream } from '../fakes/fake-upstream.js';
import { FAKE_PNG_BASE64 } from '../fakes/fake-image-bytes.js';
import { isGeminiImageModel } from '../fakes/gemini-generate-reply.js';

/** The fake's Gemini image models (https://ai.google.dev/gemini-api/docs/image-generation), read by @google/genai. */

const apiKey = 'sk-validation-images';
let fake: FakeUpstream;
let client: GoogleGenAI;
beforeAll(async () => {
  fake = await startFakeGemini({ apiKey });
  client = new GoogleGenAI({ apiKey, httpOptions: { baseUrl: fake.origin } });
  // `response.data` warns on the console when text parts come with the image.
  vi.spyOn(console, 'warn').mockImplementation(() => undefined);
});
afterAll(async () => {
  vi.restoreAllMocks();
  await fake.close();
});

const image = { inlineData: { mimeType: 'image/png', data: FAKE_PNG_BASE64 } };

describe('gemini image models through @google/genai', () => {
  test('the generated image is a 1x1 PNG', () => {
    const bytes = Buffer.from(FAKE_PNG_BASE64, 'base64');
    expect(bytes.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    expect(bytes.readUInt32BE(16)).toBe(1);
    expect(bytes.readUInt32BE(20)).toBe(1);
  });

  test('image models are named -image, Imagen is not one of them', () => {
    expect(['gemini-2.5-flash-image', 'models/gemini-3-pro-image-preview'].map(isGeminiImageModel)).toEqual([
      true,
      true,
    ]);
    expect(
      ['imagen-4.0-generate-001', 'gemini-2.5-flash', 'gemini-3-pro-preview'].map(isGeminiImageModel),
    ).toEqual([false, false, false]);
  });

  test('2.5 Flash Image: a text part then the image, unsigned; response.data is the image', async () => {
    const response = await client.models.generateContent({
      model: 'gemini-2.5-flash-image',
      contents: 'Draw a cat.',
      config: { responseModalities: [Modality.TEXT, Modality.IMAGE] },
    });
    expect(response.candidates?.[0]?.content?.parts).toEqual([{ text: 'Hello from fake Gemini.' }, image]);
    expect(response.data).toBe(FAKE_PNG_BASE64);
    expect(response.text).toBe('Hello from fake Gemini.');
    expect(response.candidates?.[0]?.finishReason).toBe('STOP');
  });

  test('3 Pro Image signs the first part and the image part', async () => {
    const response = await client.models.generateContent({
      model: 'gemini-3-pro-image-preview',
      contents: 'Draw a cat.',
    });
    const parts = response.candidates?.[0]?.content?.parts ?? [];
    expect(parts).toEqual([
      { text: 'Hello from fake Gemini.', thoughtSignature: expect.any(String) },
      { ...image, thoughtSignature: expect.any(String) },
    ]);
    expect(parts[1]?.thoughtSignature).not.toBe(parts[0]?.thoughtSignature);
    expect(response.data).toBe(FAKE_PNG_BASE64);
  });

  test('streamed: text chunks, then the image in a chunk of its own with the finish', async () => {
    const stream = await client.models.generateContentStream({
      model: 'gemini-2.5-flash-image',
      contents: 'Draw a cat.',
    });
    const chunks: { parts: unknown; finish: unknown }[] = [];
    for await (const chunk of stream)
      chunks.push({
        parts: chunk.candidates?.[0]?.content?.parts,
        finish: chunk.candidates?.[0]?.finishReason,
      });
    expect(chunks.at(-1)).toEqual({ parts: [image], finish: 'STOP' });
    const text = chunks.slice(0, -1).flatMap((chunk) => chunk.parts as { text: string }[]);
    expect(text.map((part) => part.text).join('')).toBe('Hello from fake Gemini.');
    expect(chunks.slice(0, -1).every((chunk) => chunk.finish === undefined)).toBe(true);
  });

  test('a text model answers without an image, as before', async () => {
    const response = await client.models.generateContent({ model: 'gemini-2.5-flash', contents: 'hi' });
    expect(response.data).toBeUndefined();
  });

  test('an image model refuses a response modality it cannot answer with', async () => {
    const error = await client.models
      .generateContent({
        model: 'gemini-2.5-flash-image',
        contents: 'Draw a cat.',
        config: { responseModalities: [Modality.IMAGE, 'VIDEO' as Modality] },
      })
      .then(
        () => undefined,
        (caught: unknown) => caught,
      );
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(400);
    const wire = JSON.parse((error as ApiError).message) as { error: { message: string } };
    expect(wire.error.message).toBe(
      'Invalid value at \'generation_config.response_modalities[1]\' (type.googleapis.com/google.ai.generativelanguage.v1beta.GenerationConfig.Modality), "VIDEO"',
    );
  });
});
