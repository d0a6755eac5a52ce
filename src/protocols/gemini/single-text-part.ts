import { isJsonObject } from '../wire-json.js';

/**
 * The one part of a chunk whose content is a text delta alone: one candidate, whose content is one
 * part of text (a thought or not) with nothing else; undefined for any other chunk.
 */
export function singleTextPart(chunk: unknown): { text: string; thought: boolean } | undefined {
  if (!isJsonObject(chunk) || !Array.isArray(chunk.candidates) || chunk.candidates.length !== 1)
    return undefined;
  const candidate = chunk.candidates[0];
  if (!isJsonObject(candidate) || !isJsonObject(candidate.content)) return undefined;
  const { parts } = candidate.content;
  if (!Array.isArray(parts) || parts.length !== 1 || !isJsonObject(parts[0])) return undefined;
  const part = parts[0];
  const onlyText = Object.keys(part).every(
    (key) => key === 'text' || (key === 'thought' && typeof part.thought === 'boolean'),
  );
  return onlyText && typeof part.text === 'string'
    ? { text: part.text, thought: part.thought === true }
    : undefined;
}
