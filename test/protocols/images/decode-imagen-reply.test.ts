import { describe, expect, it } from 'vitest';
import { LossLog } from '../../../src/ir/loss.js';
import { decodeImagenReply } from '../../../src/protocols/gemini/decode-imagen-reply.js';

const PNG = 'iVBORw0KGgo=';
const FILTERED =
  'Unable to show generated images. All images were filtered out because they violated Google’s Responsible AI practices.';

/** A `predict` reply as Imagen on the Gemini API sends it (https://ai.google.dev/gemini-api/docs/imagen). */
const recorded = {
  predictions: [
    { bytesBase64Encoded: PNG, mimeType: 'image/png' },
    { bytesBase64Encoded: PNG, mimeType: 'image/jpeg', prompt: 'A red lighthouse, watercolour' },
    { raiFilteredReason: FILTERED },
  ],
};

describe('decodeImagenReply', () => {
  it('one image per prediction with bytes; a filtered one is recorded as dropped with its reason', () => {
    const losses = new LossLog();
    expect(decodeImagenReply(recorded, losses)).toEqual({
      images: [
        { data: { kind: 'base64', data: PNG, mediaType: 'image/png' } },
        {
          data: { kind: 'base64', data: PNG, mediaType: 'image/jpeg' },
          revisedPrompt: 'A red lighthouse, watercolour',
        },
      ],
    });
    expect(losses.losses).toEqual([
      { path: 'predictions[2]', kind: 'dropped', reason: `filtered by Imagen: ${FILTERED}` },
    ]);
  });

  it('reads leniently: unknown members are ignored, wrong types are absent, entries without bytes dropped', () => {
    const losses = new LossLog();
    const reply = decodeImagenReply(
      {
        predictions: [
          { bytesBase64Encoded: PNG, mimeType: 7, safetyAttributes: { scores: [0.1] } },
          null,
          { mimeType: 'image/png' },
        ],
        metadata: { anything: true },
      },
      losses,
    );
    expect(reply).toEqual({ images: [{ data: { kind: 'base64', data: PNG } }] });
    expect(losses.losses.map(({ path, reason }) => `${path}: ${reason}`)).toEqual([
      'predictions[1]: no image data',
      'predictions[2]: no image data',
    ]);
  });

  it.each([[{}], [{ predictions: 'none' }], ['not json'], [null]])('%j is no image at all', (body) => {
    const losses = new LossLog();
    expect(decodeImagenReply(body, losses)).toEqual({ images: [] });
    expect(losses.losses).toEqual([]);
  });
});
