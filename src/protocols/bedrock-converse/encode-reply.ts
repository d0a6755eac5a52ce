import type { Part, ReasoningPart } from '../../ir/content.js';
import type { LossLog } from '../../ir/loss.js';
import type { CanonicalReply } from '../../ir/reply.js';
import { writeIssuedToken } from '../issued-token.js';
import { isJsonObject, setOwnMember } from '../wire-json.js';
import { BEDROCK_CONVERSE, ownExtensions } from './bedrock-converse-extensions.js';
import { toConverseToolUseId } from './bedrock-converse-ids.js';
import { encodeConverseUsage } from './convert-bedrock-converse-usage.js';
import { textBlockOf, toolInput } from './encode-content-block.js';
import { DocumentNames, encodeFileBlock } from './encode-file-block.js';
import type { LossContext } from './loss-context.js';
import { toConverseStopReason } from './map-bedrock-converse-stop-reason.js';
import { keptBlockOf, type ConverseContentBlock, type ConverseResponseBody } from './wire-types.js';

/**
 * Canonical reply -> `ConverseResponse`
 * (https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_Converse.html#API_runtime_Converse_ResponseSyntax).
 * Members a Converse reply kept (`metrics`, `trace`...) go back as they came; `metrics` is
 * required, so a reply from elsewhere states a latency of 0.
 */
export function encodeReply(reply: CanonicalReply, losses: LossLog): ConverseResponseBody {
  const documentNames = new DocumentNames();
  const content: ConverseContentBlock[] = [];
  reply.parts.forEach((part, index) =>
    content.push(...encodeReplyPart(part, { path: `parts[${index}]`, losses, documentNames })),
  );
  const body: ConverseResponseBody = {
    output: { message: { role: 'assistant', content } },
    stopReason: toConverseStopReason(reply.finishReason, losses),
    usage: encodeConverseUsage(reply.usage, { inputTokens: 0 }),
    metrics: { latencyMs: 0 },
  };
  const kept = ownExtensions(reply.extensions)?.body;
  if (isJsonObject(kept))
    for (const [key, value] of Object.entries(kept))
      if (!['output', 'stopReason', 'usage'].includes(key)) setOwnMember(body, key, value);
  return body;
}

function encodeReplyPart(
  part: Part,
  context: LossContext & { documentNames: DocumentNames },
): ConverseContentBlock[] {
  const { path, losses } = context;
  switch (part.type) {
    case 'text':
      return [textBlockOf(part)];
    case 'reasoning':
      return [encodeReplyReasoning(part, context)];
    case 'tool-call': {
      const id = toConverseToolUseId(part.id);
      if (id !== part.id) losses.coerced(`${path}.id`, `tool call id ${part.id} sent as ${id}`);
      if (part.signature)
        losses.dropped(`${path}.signature`, 'a Converse tool use has no place for a signature');
      const input = toolInput(part.arguments, { path: `${path}.arguments`, losses });
      return [{ toolUse: { toolUseId: id, name: part.name, input } }];
    }
    case 'file': {
      const block = encodeFileBlock(part, context);
      return block ? [block] : [];
    }
    case 'raw':
      if (part.protocol === BEDROCK_CONVERSE && isJsonObject(part.value)) return [keptBlockOf(part.value)];
      losses.dropped(path, `no Converse form for a raw ${part.protocol} block`);
      return [];
    case 'tool-result':
      losses.dropped(path, 'no Converse reply block for tool-result');
      return [];
    default: {
      const unreachable: never = part;
      return unreachable;
    }
  }
}

/**
 * Reasoning -> `reasoningContent`: Anthropic's signature and encrypted reasoning as they are (the
 * tokens Bedrock issues for Claude); another vendor's token in the signature behind its issuer's
 * marker, for the client to echo back; unsigned reasoning as text alone.
 */
function encodeReplyReasoning(part: ReasoningPart, { path, losses }: LossContext): ConverseContentBlock {
  const { signature, redactedData } = part;
  if (redactedData?.issuer === 'anthropic' && part.text.length === 0 && !signature)
    return { reasoningContent: { redactedContent: redactedData.value } };
  if (signature && redactedData)
    losses.dropped(
      `${path}.redactedData`,
      'Converse reasoning carries either a signature or redacted content',
    );
  const token = signature
    ? writeIssuedToken(signature, { ownVendor: 'anthropic' })
    : redactedData
      ? writeIssuedToken(redactedData, { ownVendor: 'anthropic', role: 'redacted' })
      : undefined;
  return {
    reasoningContent: {
      reasoningText: { text: part.text, ...(token !== undefined ? { signature: token } : {}) },
    },
  };
}
