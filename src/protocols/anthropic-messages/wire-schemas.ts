import { z } from 'zod';
import { lenient } from '../lenient-schema.js';

/**
 * What the gateway reads of an Anthropic upstream's replies and stream events, after `Message` and
 * `RawMessageStreamEvent` in @anthropic-ai/sdk/resources/messages/messages.d.ts. Lenient: members
 * the vendor adds later pass through, and a member of the wrong type reads as absent, never as a
 * failure (https://docs.anthropic.com/en/api/messages, .../build-with-claude/streaming).
 */

const text = lenient(z.string());
/** Usage and server blocks are read by their own lenient readers. */
const opaque = z.unknown().optional();

/** `Message` (https://docs.anthropic.com/en/api/messages#response). */
export const anthropicMessageSchema = z.looseObject({
  id: text,
  model: text,
  content: lenient(z.array(z.unknown())),
  stop_reason: lenient(z.string().nullable()),
  stop_sequence: lenient(z.string().nullable()),
  stop_details: opaque,
  container: opaque,
  usage: opaque,
});

export type AnthropicMessageRead = z.infer<typeof anthropicMessageSchema>;

const contentBlockStart = z.looseObject({
  type: text,
  text,
  thinking: text,
  signature: text,
  data: text,
  id: text,
  name: text,
  input: opaque,
});

/** A block's delta in `content_block_delta`; the stop reason in `message_delta`. */
const delta = z.looseObject({
  type: text,
  text,
  thinking: text,
  signature: text,
  partial_json: text,
  stop_reason: lenient(z.string().nullable()),
});

/** Every event of a Messages stream, as one object whose `type` tells which members it holds. */
export const anthropicStreamEventSchema = z.looseObject({
  type: text,
  index: lenient(z.number().int().nonnegative()),
  message: lenient(z.looseObject({ id: text, model: text, usage: opaque })),
  content_block: lenient(contentBlockStart),
  delta: lenient(delta),
  usage: opaque,
  error: opaque,
});

export type AnthropicStreamEventRead = z.infer<typeof anthropicStreamEventSchema>;
export type AnthropicContentBlockStartRead = z.infer<typeof contentBlockStart>;
export type AnthropicDeltaRead = z.infer<typeof delta>;
