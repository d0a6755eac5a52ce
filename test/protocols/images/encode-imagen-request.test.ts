import { describe, expect, it } from 'vitest';
import type { ImageGenerationRequest } from '../../../src/ir/image-generation.js';
import { LossLog } from '../../../src/ir/loss.js';
import { encodeImagenRequest } from '../../../src/protocols/gemini/encode-imagen-request.js';

function request(fields: Partial<ImageGenerationRequest> = {}): ImageGenerationRequest {
  return { prompt: 'A lighthouse at dusk', count: 1, extensions: {}, ...fields };
}

function encode(fields: Partial<ImageGenerationRequest> = {}) {
  const losses = new LossLog();
  const body = encodeImagenRequest(request(fields), { losses });
  return { body, losses: losses.losses };
}

describe('encodeImagenRequest', () => {
  it('always sends the count (the API would draw 4) and asks why filtered images were withheld', () => {
    expect(encode()).toMatchInlineSnapshot(`
      {
        "body": {
          "instances": [
            {
              "prompt": "A lighthouse at dusk",
            },
          ],
          "parameters": {
            "includeRaiReason": true,
            "sampleCount": 1,
          },
        },
        "losses": [],
      }
    `);
  });

  it('every canonical member Imagen takes', () => {
    const { body, losses } = encode({
      count: 4,
      size: { kind: 'pixels', width: 2816, height: 1536 },
      personGeneration: 'everyone',
      outputFormat: 'jpeg',
      outputCompression: 75,
    });
    expect(body).toMatchInlineSnapshot(`
      {
        "instances": [
          {
            "prompt": "A lighthouse at dusk",
          },
        ],
        "parameters": {
          "aspectRatio": "16:9",
          "includeRaiReason": true,
          "outputOptions": {
            "compressionQuality": 75,
            "mimeType": "image/jpeg",
          },
          "personGeneration": "ALLOW_ALL",
          "sampleCount": 4,
          "sampleImageSize": "2K",
        },
      }
    `);
    expect(losses).toEqual([]);
  });

  it.each([
    ['none', 'DONT_ALLOW'],
    ['adults', 'ALLOW_ADULT'],
    ['everyone', 'ALLOW_ALL'],
  ] as const)('person generation %s is %s', (personGeneration, expected) => {
    expect(encode({ personGeneration }).body.parameters.personGeneration).toBe(expected);
  });

  it('an exact 1K size sends only the aspect ratio; auto sends neither', () => {
    expect(encode({ size: { kind: 'pixels', width: 1024, height: 1024 } })).toEqual({
      body: expect.objectContaining({
        parameters: { sampleCount: 1, includeRaiReason: true, aspectRatio: '1:1' },
      }),
      losses: [],
    });
    expect(encode({ size: { kind: 'auto' } }).body.parameters).toEqual({
      sampleCount: 1,
      includeRaiReason: true,
    });
  });

  it('a size Imagen cannot draw exactly goes as the nearest, recorded as coerced', () => {
    const { body, losses } = encode({ size: { kind: 'pixels', width: 1536, height: 1024 } });
    expect(body.parameters).toEqual({ sampleCount: 1, includeRaiReason: true, aspectRatio: '4:3' });
    expect(losses).toEqual([
      {
        path: 'size',
        kind: 'coerced',
        reason: 'Imagen draws 1536x1024 as aspect ratio 4:3 at 1K (1280x896)',
      },
    ]);
  });

  it('records what the Gemini API does not take instead of sending it', () => {
    const { body, losses } = encode({
      negativePrompt: 'people',
      outputFormat: 'webp',
      outputCompression: 50,
      extensions: { 'openai-images': { quality: 'high', style: 'vivid', user: 'u-1' } },
    });
    expect(body.parameters).toEqual({ sampleCount: 1, includeRaiReason: true });
    expect(losses.map(({ path, kind }) => `${kind} ${path}`)).toEqual([
      'dropped negative_prompt',
      'dropped output_format',
      'dropped output_compression',
      'dropped quality',
      'dropped style',
      'dropped user',
    ]);
  });

  it('PNG output takes no compression: recorded as dropped', () => {
    const { body, losses } = encode({ outputFormat: 'png', outputCompression: 10 });
    expect(body.parameters.outputOptions).toEqual({ mimeType: 'image/png' });
    expect(losses).toEqual([
      { path: 'output_compression', kind: 'dropped', reason: 'Imagen compresses JPEG output only' },
    ]);
  });
});
