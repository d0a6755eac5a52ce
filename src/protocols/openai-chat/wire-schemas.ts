import { z } from 'zod';
import { lenient, lenientArray } from '../lenient-schema.js';

/**
 * What chat completions upstreams send, read leniently (STYLE rule 8): only the members the
 * decoders read, each optional, and a value of the wrong type is taken as absent. Unknown members
 * pass through (`looseObject`) so the decoders can keep them for a same-protocol client. Shapes:
 * `ChatCompletion` and `ChatCompletionChunk` in openai/resources/chat/completions/completions.d.ts;
 * `reasoning_content` (DeepSeek, vLLM), `reasoning` and `images` (OpenRouter) beside them.
 */

const functionCall = z.looseObject({
  name: lenient(z.string()),
  /** A string; some compatible servers send the arguments as an object. */
  arguments: z.unknown().optional(),
});

const toolCall = z.looseObject({
  index: lenient(z.number()),
  id: lenient(z.string()),
  type: lenient(z.string()),
  function: lenient(functionCall),
});

export type OpenAIChatWireToolCall = z.infer<typeof toolCall>;

/**
 * An image the model generated, in OpenRouter's `message.images` / `delta.images`
 * (https://openrouter.ai/docs/features/multimodal/image-generation); a bare link string is taken too.
 */
const generatedImage = z.looseObject({
  type: lenient(z.string()),
  image_url: lenient(z.union([z.string(), z.looseObject({ url: lenient(z.string()) })])),
});

export type OpenAIChatWireGeneratedImage = z.infer<typeof generatedImage>;

const messageFields = {
  content: z.unknown().optional(),
  refusal: lenient(z.string()),
  reasoning_content: lenient(z.string()),
  reasoning: lenient(z.string()),
  tool_calls: lenientArray(toolCall),
  images: lenientArray(generatedImage),
};

const message = z.looseObject(messageFields);

const choice = z.looseObject({
  index: lenient(z.number()),
  message: lenient(message),
  finish_reason: lenient(z.string()),
});

/** A `chat.completion`. */
export const openAIChatCompletionSchema = z.looseObject({
  id: lenient(z.string()),
  model: lenient(z.string()),
  created: lenient(z.number()),
  choices: lenientArray(choice),
  usage: z.unknown().optional(),
});

export type OpenAIChatWireCompletion = z.infer<typeof openAIChatCompletionSchema>;
export type OpenAIChatWireMessage = z.infer<typeof message>;

const delta = z.looseObject({
  ...messageFields,
  content: lenient(z.string()),
  function_call: lenient(functionCall),
});

const chunkChoice = z.looseObject({
  index: lenient(z.number()),
  delta: lenient(delta),
  finish_reason: lenient(z.string()),
});

/** A `chat.completion.chunk`, or the `{"error": {...}}` an upstream sends in its place. */
export const openAIChatChunkSchema = z.looseObject({
  id: lenient(z.string()),
  model: lenient(z.string()),
  created: lenient(z.number()),
  choices: lenientArray(chunkChoice),
  usage: z.unknown().optional(),
  error: z.unknown().optional(),
});

export type OpenAIChatWireChunk = z.infer<typeof openAIChatChunkSchema>;
export type OpenAIChatWireChunkChoice = z.infer<typeof chunkChoice>;
