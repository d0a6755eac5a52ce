import type { FilePart } from '../../ir/content.js';
import type { LossLog } from '../../ir/loss.js';
import type { JsonObject } from '../wire-json.js';

/**
 * A file the model produced (an image from a Gemini image model) as the output item Responses
 * gives a generated image, an `image_generation_call` whose `result` is the image in base64
 * (https://platform.openai.com/docs/api-reference/responses/object#responses/object-output). The
 * item has no place for a link, another file type or an uploaded-file id: those are dropped, the
 * loss recorded.
 */
export function generatedImageItem(
  file: FilePart,
  options: { id: string; path: string; losses: LossLog },
): JsonObject | undefined {
  if (!file.mediaType.startsWith('image/') || file.source.kind !== 'base64') {
    options.losses.dropped(
      options.path,
      `a generated ${file.mediaType} file by ${file.source.kind} has no Responses output item`,
    );
    return undefined;
  }
  const format = file.mediaType.slice('image/'.length);
  return {
    id: options.id,
    type: 'image_generation_call',
    status: 'completed',
    result: file.source.data,
    ...(['png', 'jpeg', 'webp'].includes(format) && { output_format: format }),
  };
}
