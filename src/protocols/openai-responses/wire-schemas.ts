import { z } from 'zod';
import { lenient } from '../lenient-schema.js';

/**
 * What Responses upstreams send, read leniently (STYLE rule 8): only the members the decoders
 * read, each optional, and a value of the wrong type is taken as absent. Unknown members pass
 * through (`looseObject`) so the decoders can keep them for a same-protocol client. Shapes:
 * `Response`, `ResponseUsage`, `ResponseOutputItem` and `ResponseStreamEvent` in
 * openai/resources/responses/responses.d.ts.
 */

/** `ResponseUsage`: input tokens include cached ones, output tokens include reasoning ones. */
export const openAIResponsesUsageSchema = z.looseObject({
  input_tokens: lenient(z.number()),
  output_tokens: lenient(z.number()),
  input_tokens_details: lenient(
    z.looseObject({ cached_tokens: lenient(z.number()), cache_write_tokens: lenient(z.number()) }),
  ),
  output_tokens_details: lenient(z.looseObject({ reasoning_tokens: lenient(z.number()) })),
});

export type OpenAIResponsesWireUsage = z.infer<typeof openAIResponsesUsageSchema>;

/** The members of an output item the decoders read; the item itself is kept whole where it has no canonical part. */
export const openAIResponsesItemSchema = z.looseObject({
  type: lenient(z.string()),
  id: lenient(z.string()),
  call_id: lenient(z.string()),
  name: lenient(z.string()),
  arguments: lenient(z.string()),
  encrypted_content: lenient(z.string()),
});

const errorSchema = z.looseObject({ code: lenient(z.string()), message: lenient(z.string()) });

/** The `Response` object, as replies and the stream's lifecycle events carry it. */
export const openAIResponsesResponseSchema = z.looseObject({
  id: lenient(z.string()),
  model: lenient(z.string()),
  created_at: lenient(z.number()),
  status: lenient(z.string()),
  incomplete_details: lenient(z.looseObject({ reason: lenient(z.string()) })),
  error: lenient(errorSchema),
  output: lenient(z.array(z.unknown())),
  usage: lenient(openAIResponsesUsageSchema),
});

export type OpenAIResponsesWireResponse = z.infer<typeof openAIResponsesResponseSchema>;

/** Every event of a Responses stream is numbered, from 0 on, in this member. */
export const SEQUENCE_NUMBER = 'sequence_number';

/**
 * Any stream event: one schema with the members of every event type the decoder reads, so each
 * event is parsed once. `code`, `message` and `error` are those of an `error` event.
 */
export const openAIResponsesStreamEventSchema = z.looseObject({
  type: lenient(z.string()),
  response: lenient(openAIResponsesResponseSchema),
  item: lenient(openAIResponsesItemSchema),
  part: lenient(z.looseObject({ type: lenient(z.string()) })),
  output_index: lenient(z.number()),
  content_index: lenient(z.number()),
  delta: lenient(z.string()),
  text: lenient(z.string()),
  refusal: lenient(z.string()),
  arguments: lenient(z.string()),
  code: lenient(z.string()),
  message: lenient(z.string()),
  error: lenient(errorSchema),
});

export type OpenAIResponsesWireStreamEvent = z.infer<typeof openAIResponsesStreamEventSchema>;
