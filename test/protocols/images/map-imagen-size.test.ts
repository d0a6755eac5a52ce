import { describe, expect, it } from 'vitest';
import { mapImagenSize } from '../../../src/protocols/gemini/map-imagen-size.js';

const pixels = (width: number, height: number) => ({ kind: 'pixels' as const, width, height });

describe('mapImagenSize', () => {
  it('auto leaves the size to Imagen', () => {
    expect(mapImagenSize({ kind: 'auto' })).toBeUndefined();
  });

  // Every size of ImageGenerateParamsBase.size (openai/resources/images.d.ts).
  it.each([
    ['1024x1024', '1:1', '1K', 1024, 1024, true],
    ['1536x1024', '4:3', '1K', 1280, 896, false],
    ['1024x1536', '3:4', '1K', 896, 1280, false],
    ['1792x1024', '16:9', '1K', 1408, 768, false],
    ['1024x1792', '9:16', '1K', 768, 1408, false],
    ['256x256', '1:1', '1K', 1024, 1024, false],
    ['512x512', '1:1', '1K', 1024, 1024, false],
  ])('OpenAI size %s: %s at %s (%ix%i), exact %s', (size, aspectRatio, imageSize, width, height, exact) => {
    const [w, h] = size.split('x').map(Number) as [number, number];
    expect(mapImagenSize(pixels(w, h))).toEqual({ aspectRatio, imageSize, width, height, exact });
  });

  it.each([
    [1280, 896, '4:3', '1K', true],
    [1408, 768, '16:9', '1K', true],
    [2048, 2048, '1:1', '2K', true],
    [2816, 1536, '16:9', '2K', true],
    [1536, 2816, '9:16', '2K', true],
    [1536, 864, '16:9', '1K', false],
    [3840, 2160, '16:9', '2K', false],
    [1000, 3000, '9:16', '2K', false],
  ])('%ix%i: %s at %s, exact %s', (width, height, aspectRatio, imageSize, exact) => {
    expect(mapImagenSize(pixels(width, height))).toMatchObject({ aspectRatio, imageSize, exact });
  });

  it('wide and tall misses weigh alike: a ratio between two tiers goes to the nearer by logarithm', () => {
    // In log space 1.6 is 0.113 from 4:3 and 0.136 from 16:9; 1.7 is 0.174 from 4:3 and 0.076 from 16:9.
    expect(mapImagenSize(pixels(1600, 1000))?.aspectRatio).toBe('4:3');
    expect(mapImagenSize(pixels(1000, 1600))?.aspectRatio).toBe('3:4');
    expect(mapImagenSize(pixels(1700, 1000))?.aspectRatio).toBe('16:9');
    expect(mapImagenSize(pixels(1000, 1700))?.aspectRatio).toBe('9:16');
  });
});
