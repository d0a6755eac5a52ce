import type { Part } from '../../ir/content.js';
import type { LossLog } from '../../ir/loss.js';
import type { CanonicalReply, FinishReason } from '../../ir/reply.js';
import { emptyUsage } from '../../ir/usage.js';
import { collectGeminiCallIds } from './decode-contents.js';
import { convertGeminiUsage, countGeminiWebSearches } from './convert-gemini-usage.js';
import { GEMINI, type GeminiReplyExtensions } from './gemini-extensions.js';
import { GeminiPartAssembler } from './gemini-part-assembler.js';
import { mapGeminiFinishReason } from './map-gemini-finish-reason.js';
import { readGeminiPart } from './read-gemini-part.js';
import { readResponseIdentity } from './response-identity.js';
import { ToolCallIds } from './tool-call-ids.js';
import { isJsonObject, withoutKeys } from '../wire-json.js';
import { geminiResponseSchema, type GeminiCandidateRead, type GeminiResponseRead } from './wire-schemas.js';

/** Candidate fields with a canonical place. */
const CANDIDATE_FIELDS = ['content', 'finishReason', 'index'];
/** Response fields with a canonical place. */
const RESPONSE_FIELDS = [
  'candidates',
  'usageMetadata',
  'modelVersion',
  'responseId',
  'createTime',
  'sdkHttpResponse',
];

/**
 * A GenerateContentResponse (https://ai.google.dev/api/generate-content#generatecontentresponse)
 * in the canonical form, read leniently: the first candidate is the reply (a request for several
 * records the others as dropped); a prompt blocked before any candidate is a content filter.
 */
export function decodeGeminiReply(body: unknown, losses: LossLog): CanonicalReply {
  const parsed = geminiResponseSchema.safeParse(body);
  const response: GeminiResponseRead = parsed.success ? parsed.data : {};
  // The id derived for a body without one is a hash of the body as received.
  const identity = readResponseIdentity(parsed.success ? body : {});
  const candidates = response.candidates ?? [];
  const candidate = candidates[0];
  for (const index of candidates.keys())
    if (index > 0) losses.dropped(`candidates[${index}]`, 'only the first candidate is kept');

  const parts = decodeCandidateParts(candidate, { losses, responseId: identity.id });
  const usage = convertGeminiUsage(response.usageMetadata) ?? emptyUsage();
  usage.webSearchCalls = countGeminiWebSearches(candidate);

  const extensions: GeminiReplyExtensions = {};
  const candidateRest = candidate ? withoutKeys(candidate, CANDIDATE_FIELDS) : undefined;
  if (candidateRest) extensions.candidate = candidateRest;
  const responseRest = withoutKeys(response, RESPONSE_FIELDS);
  if (responseRest) extensions.response = responseRest;

  return {
    ...identity,
    parts,
    finishReason: readFinishReason(response, candidate, parts),
    usage,
    extensions: Object.keys(extensions).length > 0 ? { [GEMINI]: { ...extensions } } : {},
  };
}

function decodeCandidateParts(
  candidate: GeminiCandidateRead | undefined,
  context: { losses: LossLog; responseId: string },
): Part[] {
  const content = candidate?.content;
  const wireParts = content?.parts ?? [];
  const taken = collectGeminiCallIds(content ? [content] : []);
  const assembler = new GeminiPartAssembler(
    new ToolCallIds({ taken, responseId: context.responseId }),
    context.losses,
  );
  for (const [index, part] of wireParts.entries()) {
    const path = `candidates[0].content.parts[${index}]`;
    const view = readGeminiPart(part, path, context.losses);
    if (view.kind === 'invalid' || view.kind === 'function-response') {
      context.losses.coerced(path, 'not a part a model writes; kept as a raw part');
      assembler.add({ kind: 'raw', value: isJsonObject(part) ? part : { value: part } }, path);
    } else assembler.add(view, path);
  }
  return assembler.end();
}

function readFinishReason(
  response: GeminiResponseRead,
  candidate: GeminiCandidateRead | undefined,
  parts: Part[],
): FinishReason {
  const raw = candidate?.finishReason;
  const blockReason = candidate === undefined ? response.promptFeedback?.blockReason : undefined;
  if (blockReason !== undefined) return { unified: 'content-filter', raw: blockReason };
  return mapGeminiFinishReason(raw, { hasToolCalls: parts.some((part) => part.type === 'tool-call') });
}
