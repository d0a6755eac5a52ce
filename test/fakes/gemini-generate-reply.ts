import { createHmac, timingSafeEqual } from 'node:crypto';
import { FAKE_PNG_BASE64 } from './fake-image-bytes.js';
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

/** Signs what the fake issued, so that it can tell its own thought signatures from made-up ones. */
const SIGNING_SECRET = 'fake-gemini-thought-signatures';
const MAC_LENGTH = 32;

/**
 * A thought signature the fake can verify later: base64 of the subject, a zero byte and an
 * HMAC-SHA256 of the subject. Real ones are opaque base64 too
 * (https://ai.google.dev/gemini-api/docs/thought-signatures).
 */
export function issueThoughtSignature(subject: string): string {
  const mac = createHmac('sha256', SIGNING_SECRET).update(subject).digest();
  return Buffer.concat([Buffer.from(subject, 'utf8'), Buffer.from([0]), mac]).toString('base64');
}

export function isIssuedThoughtSignature(value: string): boolean {
  const bytes = Buffer.from(value, 'base64');
  if (bytes.length <= MAC_LENGTH || bytes.toString('base64') !== value) return false;
  const separator = bytes.length - MAC_LENGTH - 1;
  if (bytes[separator] !== 0) return false;
  const expected = createHmac('sha256', SIGNING_SECRET).update(bytes.subarray(0, separator)).digest();
  return timingSafeEqual(bytes.subarray(separator + 1), expected);
}

/** Gemini 3 models always think and always sign their function calls. */
export function isGemini3(model: string): boolean {
  return model.replace(/^models\//, '').startsWith('gemini-3');
}

/**
 * Gemini's own image models (`gemini-2.5-flash-image`, `gemini-3-pro-image-preview`), which answer
 * generateContent with generated images (https://ai.google.dev/gemini-api/docs/image-generation);
 * Imagen models answer `predict` instead.
 */
export function isGeminiImageModel(model: string): boolean {
  const name = model.replace(/^models\//, '');
  return name.includes('-image') && !name.includes('imagen');
}

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
  const envelope = { modelVersion: input.model, responseId };

  if (content.refusal) return refusalReply({ usage: content.usage, envelope, stream: input.stream });

  const usageMetadata = geminiUsage(content.usage);
  const imageModel = isGeminiImageModel(input.model);
  // Gemini 3 always thinks; older models think unless the budget is zero, and sign what follows.
  // Of the image models only Gemini 3 Pro Image thinks (and signs); 2.5 Flash Image does not.
  const signed = isGemini3(input.model) || (!imageModel && thinkingConfig.thinkingBudget !== 0);
  const signature = (subject: string) =>
    signed ? { thoughtSignature: issueThoughtSignature(`${responseId}:${subject}`) } : {};
  const thoughts: Part[] =
    thinkingConfig.includeThoughts === true
      ? [{ text: content.thinking, thought: true, ...signature('thought') }]
      : [];
  // The first function call carries the thought signature, parallel calls after it none
  // (https://ai.google.dev/gemini-api/docs/thought-signatures); without calls, the first answer part.
  const args = JSON.parse(content.toolArguments) as unknown;
  const calling = toolName !== undefined && content.toolCall !== false;
  const answer: Part[] = calling
    ? Array.from({ length: Math.max(1, content.toolCallCount) }, (_, index) => ({
        functionCall: { name: toolName, args },
        ...(index === 0 && signature('call')),
      }))
    : splitIntoDeltas(content.text).map((text, index) =>
        index === 0 ? { text, ...signature('text') } : { text },
      );
  // An image model's answer ends with the image, a part of its own, signed on Gemini 3
  // (https://ai.google.dev/gemini-api/docs/image-generation#thought-signatures).
  const images: Part[] =
    imageModel && !calling
      ? [{ inlineData: { mimeType: 'image/png', data: FAKE_PNG_BASE64 }, ...signature('image') }]
      : [];
  const candidate = (parts: Part[], finished: boolean) => ({
    content: { parts, role: 'model' },
    ...(finished && { finishReason: 'STOP' }),
    index: 0,
  });

  if (!input.stream)
    return {
      kind: 'json',
      body: {
        candidates: [candidate([...thoughts, ...mergeText(answer), ...images], true)],
        usageMetadata,
        ...envelope,
      },
    };

  // Each streamed chunk is a whole GenerateContentResponse; the usage grows and is final on the last.
  const parts = [...thoughts, ...answer, ...images];
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

/**
 * A safety stop: the candidate ends with `SAFETY`, its ratings say which category blocked it, and
 * it holds no content (https://ai.google.dev/api/generate-content#FinishReason). Only the prompt
 * is counted. A stream sends the same response as its one chunk.
 */
function refusalReply(input: {
  usage: FakeUsage;
  envelope: { modelVersion: string; responseId: string };
  stream: boolean;
}): FakeReply {
  const prompt = input.usage.inputTokens;
  const response = {
    candidates: [
      {
        finishReason: 'SAFETY',
        index: 0,
        safetyRatings: [
          { category: 'HARM_CATEGORY_SEXUALLY_EXPLICIT', probability: 'NEGLIGIBLE' },
          { category: 'HARM_CATEGORY_HATE_SPEECH', probability: 'NEGLIGIBLE' },
          { category: 'HARM_CATEGORY_HARASSMENT', probability: 'NEGLIGIBLE' },
          { category: 'HARM_CATEGORY_DANGEROUS_CONTENT', probability: 'HIGH', blocked: true },
        ],
      },
    ],
    usageMetadata: {
      promptTokenCount: prompt,
      totalTokenCount: prompt,
      promptTokensDetails: [{ modality: 'TEXT', tokenCount: prompt }],
    },
    ...input.envelope,
  };
  if (!input.stream) return { kind: 'json', body: response };
  return { kind: 'sse', events: [sseEvent(response, { separator: '\r\n\r\n' })] };
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
