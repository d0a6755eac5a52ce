import type { FilePart } from '../../ir/content.js';
import type { LossLog } from '../../ir/loss.js';
import type { OpenAIChatGeneratedImage } from './wire-types.js';

/**
 * A file the model produced (an image from a Gemini image model) as an entry of the assistant
 * message's `images`, the member OpenRouter's chat completions carry generated images in
 * (https://openrouter.ai/docs/features/multimodal/image-generation): a data URL for inline bytes,
 * the link itself for a hosted file. Chat completions have no place for other files, nor for an
 * uploaded-file id of another vendor: those are dropped, the loss recorded.
 */
export function encodeGeneratedImage(
  file: FilePart,
  options: { path: string; losses: LossLog },
): OpenAIChatGeneratedImage | undefined {
  if (!file.mediaType.startsWith('image/')) {
    options.losses.dropped(
      options.path,
      `a chat completion message cannot hold a generated ${file.mediaType} file`,
    );
    return undefined;
  }
  switch (file.source.kind) {
    case 'base64':
      return { type: 'image_url', image_url: { url: `data:${file.mediaType};base64,${file.source.data}` } };
    case 'url':
      return { type: 'image_url', image_url: { url: file.source.url } };
    case 'file-id':
      options.losses.dropped(options.path, 'an uploaded-file id has no chat completions form');
      return undefined;
    default: {
      const unhandled: never = file.source;
      return unhandled;
    }
  }
}
