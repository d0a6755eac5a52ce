import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../../src/errors/gateway-error.js';
import { LossLog } from '../../../src/ir/loss.js';
import { InvalidRequestError } from '../../../src/protocols/invalid-request-error.js';
import {
  decodeOpenAIImagesRequest,
  OPENAI_IMAGES,
} from '../../../src/protocols/openai-images/decode-request.js';

const decode = (body: Record<string, unknown>, losses = new LossLog()) =>
  decodeOpenAIImagesRequest(body, { losses });

describe('decodeOpenAIImagesRequest', () => {
  it('maps every member with a canonical place and keeps the rest as extensions', () => {
    const losses = new LossLog();
    const request = decode(
      {
        model: 'gpt-image-1',
        prompt: 'A lighthouse at dusk',
        n: 3,
        size: '1536x1024',
        response_format: 'url',
        output_format: 'jpeg',
        output_compression: 70,
        negative_prompt: 'people',
        person_generation: 'allow_adult',
        quality: 'high',
        style: 'vivid',
        background: 'opaque',
        moderation: 'low',
        user: 'user-1',
        future_member: { nested: true },
      },
      losses,
    );
    expect(request).toEqual({
      prompt: 'A lighthouse at dusk',
      count: 3,
      size: { kind: 'pixels', width: 1536, height: 1024 },
      negativePrompt: 'people',
      personGeneration: 'adults',
      outputFormat: 'jpeg',
      outputCompression: 70,
      delivery: 'url',
      extensions: {
        [OPENAI_IMAGES]: {
          quality: 'high',
          style: 'vivid',
          background: 'opaque',
          moderation: 'low',
          user: 'user-1',
          future_member: { nested: true },
        },
      },
    });
    expect(losses.losses).toEqual([]);
  });

  it('a prompt alone: one image, nothing else set, no extensions', () => {
    expect(decode({ prompt: 'x' })).toEqual({ prompt: 'x', count: 1, extensions: {} });
    expect(decode({ prompt: 'x', n: null, size: null, response_format: null })).toEqual({
      prompt: 'x',
      count: 1,
      extensions: {},
    });
  });

  it.each([
    ['auto', { kind: 'auto' }],
    ['1024x1024', { kind: 'pixels', width: 1024, height: 1024 }],
    ['1024x1792', { kind: 'pixels', width: 1024, height: 1792 }],
    ['256x256', { kind: 'pixels', width: 256, height: 256 }],
  ])('size %s', (size, expected) => {
    expect(decode({ prompt: 'x', size }).size).toEqual(expected);
  });

  it.each([
    ['dont_allow', 'none'],
    ['allow_adult', 'adults'],
    ['allow_all', 'everyone'],
  ])('person_generation %s is %s', (value, expected) => {
    expect(decode({ prompt: 'x', person_generation: value }).personGeneration).toBe(expected);
  });

  it('b64_json is base64 delivery', () => {
    expect(decode({ prompt: 'x', response_format: 'b64_json' }).delivery).toBe('base64');
  });

  it.each([
    [{ size: 'big' }, 'size must be "auto" or WIDTHxHEIGHT, such as "1024x1024"'],
    [{ size: '0x1024' }, 'size must be "auto" or WIDTHxHEIGHT, such as "1024x1024"'],
    [{ size: 1024 }, 'size must be "auto" or WIDTHxHEIGHT, such as "1024x1024"'],
    [{ response_format: 'png' }, 'response_format must be one of b64_json, url'],
    [{ output_format: 'gif' }, 'output_format must be one of png, jpeg, webp'],
    [{ output_compression: 101 }, 'output_compression must be an integer between 0 and 100'],
    [{ output_compression: 5.5 }, 'output_compression must be an integer between 0 and 100'],
    [
      { person_generation: 'ALLOW_ADULT' },
      'person_generation must be one of dont_allow, allow_adult, allow_all',
    ],
    [{ negative_prompt: 5 }, 'negative_prompt must be a string'],
    [{ n: 0 }, 'n must be an integer between 1 and 128'],
    [{ n: '2' }, 'n must be an integer between 1 and 128'],
    [{ response_format: 'constructor' }, 'response_format must be one of b64_json, url'],
  ])('refuses %j', (member, message) => {
    const decoding = () => decode({ prompt: 'x', ...member });
    expect(decoding).toThrow(InvalidRequestError);
    expect(decoding).toThrow(message);
  });

  it('a missing prompt is a missing field; a prompt of the wrong type is invalid', () => {
    expect(() => decode({ model: 'm' })).toThrow(GatewayError);
    expect(() => decode({ model: 'm' })).toThrow('field prompt is required');
    expect(() => decode({ prompt: ['x'] })).toThrow('prompt must be a string');
  });

  it('records stream and partial_images as dropped; stream false is no loss', () => {
    const losses = new LossLog();
    const request = decode({ prompt: 'x', stream: true, partial_images: 2 }, losses);
    expect(request.extensions).toEqual({});
    expect(losses.losses.map(({ path, kind }) => `${kind} ${path}`)).toEqual([
      'dropped stream',
      'dropped partial_images',
    ]);
    const quiet = new LossLog();
    decode({ prompt: 'x', stream: false }, quiet);
    expect(quiet.losses).toEqual([]);
  });

  it('a member named __proto__ stays an own member of the extensions', () => {
    const body = JSON.parse('{"prompt":"x","__proto__":{"polluted":true}}') as Record<string, unknown>;
    const extension = decode(body).extensions[OPENAI_IMAGES];
    expect(Object.hasOwn(extension ?? {}, '__proto__')).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
