import {
  asRecord,
  splitIntoDeltas,
  sseEvent,
  type FakeReply,
  type FakeUsage,
  type RecordedRequest,
  type ReplyContent,
} from './fake-upstream.js';

type Part = Record<string, unknown>;

// Shape: `GenerateContentResponse` in @google/genai. https://ai.google.dev/api/generate-content#v1beta.GenerateContentResponse
export function geminiGenerateReply(input: {
  request: RecordedRequest;
  content: ReplyContent;
  nextId: (prefix: string) => string;
  model: string;
  stream: boolean;
}): FakeReply {
  const { content } = input;
  const body = asRecord(input.request.body);
  const thinkingConfig = asRecord(asRecord(body.generationConfig).thinkingConfig);
  const toolName = firstToolName(body.tools);
  const responseId = input.nextId('resp-');
  const usageMetadata = geminiUsage(content.usage);
  const envelope = { modelVersion: input.model, responseId };

  const thoughts: Part[] =
    thinkingConfig.includeThoughts === true ? [{ text: content.thinking, thought: true }] : [];
  const signature = Buffer.from(`${responseId}:${content.thinking}`).toString('base64');
  // A function call carries the thought signature; without one, the first answer part does.
  const answer: Part[] =
    toolName !== undefined && content.toolCall !== false
      ? [
          {
            functionCall: { name: toolName, args: JSON.parse(content.toolArguments) as unknown },
            thoughtSignature: signature,
          },
        ]
      : splitIntoDeltas(content.text).map((text, index) =>
          index === 0 ? { text, thoughtSignature: signature } : { text },
        );
  const candidate = (parts: Part[], finished: boolean) => ({
    content: { parts, role: 'model' },
    ...(finished && { finishReason: 'STOP' }),
    index: 0,
  });

  if (!input.stream)
    return {
      kind: 'json',
      body: {
        candidates: [candidate([...thoughts, ...mergeText(answer)], true)],
        usageMetadata,
        ...envelope,
      },
    };

  // Each streamed chunk is a whole GenerateContentResponse; the usage grows and is final on the last.
  const parts = [...thoughts, ...answer];
  const partialUsage = {
    promptTokenCount: usageMetadata.promptTokenCount,
    totalTokenCount: usageMetadata.promptTokenCount,
  };
  const events = parts.map((part, index) => {
    const last = index === parts.length - 1;
    const chunk = {
      candidates: [candidate([part], last)],
      usageMetadata: last ? usageMetadata : partialUsage,
      ...envelope,
    };
    return sseEvent(chunk, { separator: '\r\n\r\n' });
  });
  return { kind: 'sse', events };
}

/** A non-streamed reply holds the answer text in one part. */
function mergeText(parts: Part[]): Part[] {
  if (parts.some((part) => typeof part.text !== 'string')) return parts;
  return [{ ...parts[0], text: parts.map((part) => part.text).join('') }];
}

/** `usageMetadata`: the prompt count includes cached tokens; candidates exclude thoughts, the total includes them. */
function geminiUsage(usage: FakeUsage) {
  const candidatesTokenCount = usage.outputTokens - usage.reasoningTokens;
  return {
    promptTokenCount: usage.inputTokens,
    candidatesTokenCount,
    totalTokenCount: usage.inputTokens + usage.outputTokens,
    cachedContentTokenCount: usage.cachedTokens,
    thoughtsTokenCount: usage.reasoningTokens,
    promptTokensDetails: [{ modality: 'TEXT', tokenCount: usage.inputTokens }],
    cacheTokensDetails: [{ modality: 'TEXT', tokenCount: usage.cachedTokens }],
    candidatesTokensDetails: [{ modality: 'TEXT', tokenCount: candidatesTokenCount }],
  };
}

function firstToolName(tools: unknown): string | undefined {
  if (!Array.isArray(tools)) return undefined;
  const declarations = asRecord(tools.find((tool) => Array.isArray(asRecord(tool).functionDeclarations)));
  const name = asRecord((declarations.functionDeclarations as unknown[] | undefined)?.[0]).name;
  return typeof name === 'string' ? name : undefined;
}
