import type { Part } from '../../ir/content.js';
import type { LossLog } from '../../ir/loss.js';
import type { CanonicalReply } from '../../ir/reply.js';
import { emptyUsage } from '../../ir/usage.js';
import { ANTHROPIC_MESSAGES, type AnthropicReplyExtensions } from './anthropic-extensions.js';
import { convertAnthropicUsage } from './convert-anthropic-usage.js';
import { attachToolCallSignatures } from './attach-tool-call-signatures.js';
import { decodeContentBlock } from './decode-content-block.js';
import { mapAnthropicFinishReason } from './map-anthropic-finish-reason.js';
import { anthropicMessageSchema, type AnthropicMessageRead } from './wire-schemas.js';

/**
 * A Messages reply (`Message`, https://docs.anthropic.com/en/api/messages#response) -> canonical
 * reply. Lenient: what is missing stays empty or unknown, unknown blocks are kept raw.
 */
export function decodeReply(body: unknown, losses: LossLog): CanonicalReply {
  const read = anthropicMessageSchema.safeParse(body);
  const message: AnthropicMessageRead = read.success ? read.data : {};
  const content = message.content ?? [];
  const parts: Part[] = attachToolCallSignatures(
    content.map((block, index) =>
      decodeContentBlock(block, { path: `content[${index}]`, losses, strict: false }),
    ),
  );
  const extensions: AnthropicReplyExtensions = {};
  if (typeof message.stop_sequence === 'string') extensions.stop_sequence = message.stop_sequence;
  if (message.stop_details !== undefined && message.stop_details !== null)
    extensions.stop_details = message.stop_details;
  if (message.container !== undefined && message.container !== null) extensions.container = message.container;

  return {
    id: message.id ?? '',
    model: message.model ?? '',
    created: Math.floor(Date.now() / 1000),
    parts,
    finishReason: mapAnthropicFinishReason(message.stop_reason),
    usage: convertAnthropicUsage(message.usage) ?? { ...emptyUsage(), raw: message.usage },
    extensions: Object.keys(extensions).length > 0 ? { [ANTHROPIC_MESSAGES]: { ...extensions } } : {},
  };
}
