import { z } from 'zod';
import { lenient } from '../lenient-schema.js';

/**
 * What the gateway reads of a Converse upstream's replies and stream events, after
 * `ConverseResponse` and the members of `ConverseStreamOutput` in
 * @aws-sdk/client-bedrock-runtime/dist-types/models/models_0.d.ts. Lenient: members the service
 * adds later pass through, and a member of the wrong type reads as absent, never as a failure
 * (https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_Converse.html,
 * .../API_runtime_ConverseStream.html).
 */

const text = lenient(z.string());
const index = lenient(z.number().int().nonnegative());
/** Content blocks and usage are read by their own lenient readers. */
const opaque = z.unknown().optional();

/** `ConverseResponse` */
export const converseResponseSchema = z.looseObject({
  output: lenient(
    z.looseObject({
      message: lenient(z.looseObject({ role: text, content: lenient(z.array(z.unknown())) })),
    }),
  ),
  stopReason: text,
  usage: opaque,
});

export type ConverseResponseRead = z.infer<typeof converseResponseSchema>;

/** `ContentBlockStart`: a tool use; tool results and images have no canonical stream event. */
const blockStart = z.looseObject({
  toolUse: lenient(z.looseObject({ toolUseId: text, name: text, type: text })),
});

/** `ContentBlockDelta` */
const blockDelta = z.looseObject({
  text,
  toolUse: lenient(z.looseObject({ input: text })),
  reasoningContent: lenient(z.looseObject({ text, signature: text, redactedContent: text })),
});

/**
 * The payload of every ConverseStream event, as one object: the frame's event type tells which
 * members it holds (`messageStart`: role; `contentBlockStart`/`Delta`/`Stop`: the index and the
 * start or delta; `messageStop`: the stop reason; `metadata`: usage and metrics).
 */
export const converseStreamEventSchema = z.looseObject({
  role: text,
  contentBlockIndex: index,
  start: lenient(blockStart),
  delta: lenient(blockDelta),
  stopReason: text,
  usage: opaque,
});

export type ConverseStreamEventRead = z.infer<typeof converseStreamEventSchema>;
export type ConverseBlockDeltaRead = z.infer<typeof blockDelta>;
