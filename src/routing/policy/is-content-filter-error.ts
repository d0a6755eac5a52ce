import type { UpstreamErrorFacts } from './read-upstream-error-facts.js';

/**
 * Codes (or types) of a refusal by the vendor's content policy. Anthropic, Gemini's
 * generateContent and Bedrock define none: they refuse inside a successful reply (`stop_reason`
 * `refusal`, `promptFeedback.blockReason`, `stopReason` `guardrail_intervened`), which is not a
 * failed attempt.
 */
const CODES = new Set([
  // OpenAI images: "Your request was rejected as a result of our safety system."
  // (https://platform.openai.com/docs/guides/error-codes), and gpt-image's `moderation_blocked`.
  'content_policy_violation',
  'moderation_blocked',
  // Azure OpenAI: code `content_filter` with `innererror.code` `ResponsibleAIPolicyViolation`
  // (https://learn.microsoft.com/en-us/azure/ai-services/openai/concepts/content-filter);
  // Moonshot uses `content_filter` as the error's type.
  'content_filter',
  'responsibleaipolicyviolation',
  // Qwen in DashScope's compatible mode: "Input data may contain inappropriate content."
  // (https://help.aliyun.com/zh/model-studio/error-code).
  'data_inspection_failed',
  // Zhipu's code for input or output found unsafe.
  '1301',
]);

/** Google's words, under INVALID_ARGUMENT, for a prompt its Responsible AI filters refused (Imagen). */
const GOOGLE_MESSAGES: readonly RegExp[] = [
  /responsible ai practices/,
  /safety filter threshold prohibited/,
  /blocked, as it may violate our policies/,
];

/** Whether an upstream error is a refusal by the vendor's content policy (admin-api 11.3). */
export function isContentFilterError(facts: UpstreamErrorFacts): boolean {
  for (const code of facts.codes) if (CODES.has(code)) return true;
  const messages = facts.messages.map((message) => message.toLowerCase());
  // OpenAI's reasoning models refuse with the generic `invalid_prompt` ("Invalid prompt: your prompt
  // was flagged as potentially violating our usage policy", "...limited access to this content for
  // safety reasons"); the same code also names prompts that are merely malformed.
  if (
    facts.codes.has('invalid_prompt') &&
    messages.some((message) => /usage policy|safety reasons/.test(message))
  )
    return true;
  if (
    facts.codes.has('invalid_argument') &&
    messages.some((message) => GOOGLE_MESSAGES.some((pattern) => pattern.test(message)))
  )
    return true;
  // DeepSeek names nothing but its message (type and code `invalid_request_error`).
  return messages.some((message) => message.includes('content exists risk'));
}
