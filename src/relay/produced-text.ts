import type { Part } from '../ir/content.js';

/**
 * What a reply produced, as text to count when the upstream reported no output tokens: answer text,
 * reasoning text and tool-call arguments (admin-api section 3, rule 1: counted with a tokenizer).
 */
export function producedTextOf(parts: readonly Part[]): string {
  const texts: string[] = [];
  for (const part of parts) {
    if (part.type === 'text' || part.type === 'reasoning') texts.push(part.text);
    else if (part.type === 'tool-call') texts.push(part.name, part.arguments);
  }
  return texts.join('\n');
}
