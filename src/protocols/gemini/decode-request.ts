import type { Part } from '../../ir/content.js';
import type { CanonicalRequest } from '../../ir/request.js';
import type { DecodeRequestContext } from '../protocol-codec.js';
import { collectGeminiCallIds, decodeGeminiContents } from './decode-contents.js';
import { decodeGeminiGenerationConfig } from './decode-generation-config.js';
import { decodeGeminiToolChoice, decodeGeminiTools } from './decode-tools.js';
import { GEMINI, type GeminiRequestExtensions } from './gemini-extensions.js';
import { GeminiPartAssembler } from './gemini-part-assembler.js';
import { InvalidRequestError } from '../invalid-request-error.js';
import { readGeminiPart } from './read-gemini-part.js';
import { ToolCallIds } from './tool-call-ids.js';
import { asString, isJsonObject } from '../wire-json.js';

/** Top-level fields with a canonical place; every other one is kept in `extensions.gemini.body`. */
const MAPPED_FIELDS = new Set([
  'contents',
  'systemInstruction',
  'tools',
  'toolConfig',
  'generationConfig',
  'model',
]);

/**
 * A generateContent request body (https://ai.google.dev/api/generate-content#request-body) in
 * the canonical form. The model and the stream flag are in the path, so they come from the
 * context. Fields only Gemini understands (`safetySettings`, `cachedContent`, `labels`, unmapped
 * `generationConfig` members...) travel in `extensions.gemini`.
 */
export function decodeGeminiRequest(
  body: Record<string, unknown>,
  context: DecodeRequestContext,
): CanonicalRequest {
  const { contents } = body;
  if (contents === undefined) throw new InvalidRequestError('contents', 'is required');
  if (!Array.isArray(contents)) throw new InvalidRequestError('contents', 'must be an array');

  const callIds = collectGeminiCallIds(contents);
  const ids = new ToolCallIds({ taken: callIds });
  const system = decodeSystemInstruction(body.systemInstruction, context, ids);
  const messages = decodeGeminiContents(contents, { losses: context.losses, ids });
  const { tools, declarationExtras } = decodeGeminiTools(body.tools);
  const toolChoice = decodeGeminiToolChoice(body.toolConfig);
  const generation = decodeGeminiGenerationConfig(body.generationConfig);

  const extensions: GeminiRequestExtensions = {};
  const rest = Object.entries(body).filter(([key, value]) => !MAPPED_FIELDS.has(key) && value !== undefined);
  if (rest.length > 0) extensions.body = Object.fromEntries(rest);
  if (generation.rest) extensions.generationConfig = generation.rest;
  if (generation.thinkingConfig) extensions.thinkingConfig = generation.thinkingConfig;
  if (isJsonObject(body.toolConfig)) extensions.toolConfig = body.toolConfig;
  if (Object.keys(declarationExtras).length > 0) extensions.functionDeclarations = declarationExtras;
  if (callIds.length > 0) extensions.functionCallIds = [...new Set(callIds)];

  return {
    model: context.model ?? modelFromBody(body.model),
    system,
    messages,
    tools,
    ...(toolChoice && { toolChoice }),
    ...generation.sampling,
    ...(generation.responseFormat && { responseFormat: generation.responseFormat }),
    ...(generation.reasoning && { reasoning: generation.reasoning }),
    stream: context.stream ?? false,
    extensions: Object.keys(extensions).length > 0 ? { [GEMINI]: { ...extensions } } : {},
  };
}

/** `systemInstruction` is a `Content` whose role is ignored; a bare string is taken as its text. */
function decodeSystemInstruction(value: unknown, context: DecodeRequestContext, ids: ToolCallIds): Part[] {
  if (value === undefined) return [];
  if (typeof value === 'string') return [{ type: 'text', text: value }];
  if (!isJsonObject(value) || !Array.isArray(value.parts))
    throw new InvalidRequestError('systemInstruction', 'must be a Content with parts');
  const assembler = new GeminiPartAssembler(ids, context.losses);
  for (const [index, part] of value.parts.entries()) {
    const path = `systemInstruction.parts[${index}]`;
    const view = readGeminiPart(part, path, context.losses);
    if (view.kind === 'invalid') throw new InvalidRequestError(path, view.problem);
    if (view.kind === 'function-response')
      throw new InvalidRequestError(path, 'functionResponse is not allowed here');
    assembler.add(view, path);
  }
  return assembler.end();
}

function modelFromBody(value: unknown): string {
  const model = asString(value) ?? '';
  return model.startsWith('models/') ? model.slice('models/'.length) : model;
}
