/**
 * The values Google documents for a `thoughtSignature` that is not one: history from another
 * model or vendor, or built by hand, whose calls Gemini 3 would otherwise refuse as unsigned.
 * https://ai.google.dev/gemini-api/docs/thought-signatures#faqs
 */
export const SKIP_THOUGHT_SIGNATURE = 'skip_thought_signature_validator';

const PLACEHOLDERS: readonly string[] = [SKIP_THOUGHT_SIGNATURE, 'context_engineering_is_the_way_to_go'];

export function isPlaceholderSignature(value: string): boolean {
  return PLACEHOLDERS.includes(value);
}
