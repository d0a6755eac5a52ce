import { z } from 'zod';
import { lenient, lenientArray } from '../lenient-schema.js';

/**
 * What Imagen's `predict` answers, read leniently (STYLE rule 8): `predictions`, each a generated
 * image (`bytesBase64Encoded`, `mimeType`), the prompt the model rewrote it to (`prompt`), or, for
 * an image the safety filter withheld, `raiFilteredReason`. After `generateImagesResponseFromMldev`
 * and `generatedImageFromMldev` in @google/genai (https://ai.google.dev/gemini-api/docs/imagen).
 */
const prediction = z.looseObject({
  bytesBase64Encoded: lenient(z.string()),
  mimeType: lenient(z.string()),
  prompt: lenient(z.string()),
  raiFilteredReason: lenient(z.string()),
});

export const imagenPredictResponseSchema = z.looseObject({
  predictions: lenientArray(prediction),
});
