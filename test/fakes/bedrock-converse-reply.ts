import { signThinking } from './anthropic-messages-reply.js';
import { eventFrame } from './bedrock-event-stream.js';
import {
  asRecord,
  splitArguments,
  splitIntoDeltas,
  type FakeReply,
  type FakeUsage,
  type RecordedRequest,
  type ReplyContent,
} from './fake-upstream.js';

type Block = Record<string, unknown>;

/**
 * `ConverseResponse` of `/converse` and the `ConverseStreamOutput` events of `/converse-stream`
 * (@aws-sdk/client-bedrock-runtime; https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_ConverseStream.html):
 * messageStart, per block contentBlockStart (tool use only) -> contentBlockDelta... ->
 * contentBlockStop, messageStop, metadata with the usage.
 */
export function bedrockConverseReply(options: {
  request: RecordedRequest;
  content: ReplyContent;
  nextId: (prefix: string) => string;
  stream: boolean;
}): FakeReply {
  const { content } = options;
  const body = asRecord(options.request.body);
  const blocks: Block[] = [];
  // Claude's extended thinking is asked for through `additionalModelRequestFields.thinking`.
  const thinkingType = asRecord(asRecord(body.additionalModelRequestFields).thinking).type;
  if (thinkingType === 'enabled' || thinkingType === 'adaptive')
    blocks.push({
      reasoningContent: {
        reasoningText: { text: content.thinking, signature: signThinking(content.thinking) },
      },
    });
  blocks.push({ text: content.text });
  const toolName = firstToolName(asRecord(body.toolConfig).tools);
  const withTool = toolName !== undefined && content.toolCall !== false;
  if (withTool)
    for (let call = 0; call < content.toolCallCount; call++)
      blocks.push({
        toolUse: {
          toolUseId: options.nextId('tooluse_'),
          name: toolName,
          input: JSON.parse(content.toolArguments) as unknown,
        },
      });
  const stopReason = withTool ? 'tool_use' : 'end_turn';
  const usage = content.omitUsage ? {} : { usage: converseUsage(content.usage) };
  const metrics = { metrics: { latencyMs: 420 } };
  if (!options.stream)
    return {
      kind: 'json',
      body: { output: { message: { role: 'assistant', content: blocks } }, stopReason, ...usage, ...metrics },
    };

  const frames = [eventFrame('messageStart', { role: 'assistant' })];
  blocks.forEach((block, contentBlockIndex) => {
    const start = blockStart(block);
    if (start) frames.push(eventFrame('contentBlockStart', { start, contentBlockIndex }));
    for (const delta of blockDeltas(block))
      frames.push(eventFrame('contentBlockDelta', { delta, contentBlockIndex }));
    frames.push(eventFrame('contentBlockStop', { contentBlockIndex }));
  });
  frames.push(eventFrame('messageStop', { stopReason }));
  frames.push(eventFrame('metadata', { ...usage, ...metrics }));
  return { kind: 'event-stream', frames };
}

function blockStart(block: Block): Block | undefined {
  const toolUse = asRecord(block.toolUse);
  return block.toolUse ? { toolUse: { toolUseId: toolUse.toolUseId, name: toolUse.name } } : undefined;
}

function blockDeltas(block: Block): Block[] {
  if (typeof block.text === 'string') return splitIntoDeltas(block.text).map((text) => ({ text }));
  if (block.toolUse)
    return splitArguments(JSON.stringify(asRecord(block.toolUse).input)).map((input) => ({
      toolUse: { input },
    }));
  const reasoning = asRecord(asRecord(block.reasoningContent).reasoningText);
  return [
    ...splitIntoDeltas(String(reasoning.text)).map((text) => ({ reasoningContent: { text } })),
    { reasoningContent: { signature: reasoning.signature } },
  ];
}

/** `TokenUsage`: `inputTokens` excludes cache reads and writes, which have their own counts. */
function converseUsage(usage: FakeUsage) {
  const inputTokens = usage.inputTokens - usage.cachedTokens - usage.cacheWriteTokens;
  return {
    inputTokens,
    outputTokens: usage.outputTokens,
    totalTokens: usage.inputTokens + usage.outputTokens,
    cacheReadInputTokens: usage.cachedTokens,
    cacheWriteInputTokens: usage.cacheWriteTokens,
  };
}

function firstToolName(tools: unknown): string | undefined {
  if (!Array.isArray(tools)) return undefined;
  const name = asRecord(asRecord(tools.find((tool) => asRecord(tool).toolSpec)).toolSpec).name;
  return typeof name === 'string' ? name : undefined;
}
