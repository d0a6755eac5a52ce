import { describe, expect, it } from 'vitest';
import type { GeneratedImage } from '../../../src/ir/image-generation.js';
import { LossLog } from '../../../src/ir/loss.js';
import { encodeOpenAIImagesReply } from '../../../src/protocols/openai-images/encode-reply.js';

const NOW = 1_760_000_000;
const png = (data: string, mediaType?: string): GeneratedImage => ({
  data: { kind: 'base64', data, ...(mediaType && { mediaType }) },
});

function encode(images: GeneratedImage[], options: { delivery?: 'base64' | 'url'; created?: number } = {}) {
  const losses = new LossLog();
  const body = encodeOpenAIImagesReply(
    { images, ...(options.created !== undefined && { created: options.created }) },
    { losses, delivery: options.delivery, now: NOW },
  );
  return { body, losses: losses.losses };
}

describe('encodeOpenAIImagesReply', () => {
  it('bytes as b64_json with the revised prompt, created now, output_format from a shared media type', () => {
    const { body, losses } = encode([
      png('AAAA', 'image/png'),
      { ...png('BBBB', 'image/png'), revisedPrompt: 'A red lighthouse' },
    ]);
    expect(JSON.stringify(body)).toBe(
      JSON.stringify({
        created: NOW,
        data: [{ b64_json: 'AAAA' }, { b64_json: 'BBBB', revised_prompt: 'A red lighthouse' }],
        output_format: 'png',
      }),
    );
    expect(losses).toEqual([]);
  });

  it('keeps the upstream creation time and links as links', () => {
    const { body } = encode([{ data: { kind: 'url', url: 'https://example.com/a.png' } }], { created: 42 });
    expect(body).toEqual({ created: 42, data: [{ url: 'https://example.com/a.png' }] });
  });

  it.each([
    ['image/jpeg', 'jpeg'],
    ['image/webp', 'webp'],
  ])('%s is output_format %s', (mediaType, format) => {
    expect(encode([png('A', mediaType)]).body.output_format).toBe(format);
  });

  it('no output_format when the media types differ, are unknown or missing', () => {
    expect(encode([png('A', 'image/png'), png('B', 'image/jpeg')]).body).not.toHaveProperty('output_format');
    expect(encode([png('A', 'image/gif')]).body).not.toHaveProperty('output_format');
    expect(encode([png('A', 'image/png'), png('B')]).body).not.toHaveProperty('output_format');
    expect(encode([]).body).toEqual({ created: NOW, data: [] });
  });

  it('links asked for but bytes received: answered with b64_json, recorded as coerced once', () => {
    const { body, losses } = encode([png('A'), png('B')], { delivery: 'url' });
    expect(body.data).toEqual([{ b64_json: 'A' }, { b64_json: 'B' }]);
    expect(losses).toEqual([
      {
        path: 'response_format',
        kind: 'coerced',
        reason:
          'the upstream returned image bytes and the gateway stores no files to link to: answered with b64_json',
      },
    ]);
    expect(encode([png('A')], { delivery: 'base64' }).losses).toEqual([]);
  });
});
