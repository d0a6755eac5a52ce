import type { UpstreamErrorFacts } from './read-upstream-error-facts.js';

/** Codes that name an input longer than the model's context window. */
const CODES = new Set([
  // OpenAI, Azure, Groq (https://platform.openai.com/docs/guides/error-codes).
  'context_length_exceeded',
  // Zhipu's code for "Prompt exceeds max length".
  '1261',
]);

/**
 * How each vendor words it when no code says so. Each names the input (prompt, context) as too
 * long; limits on the output (`max_tokens` above the model's cap) and on a single field's length
 * are other failures: no other target answers those better.
 */
const MESSAGES: readonly RegExp[] = [
  // OpenAI chat completions, and the servers that copy its wording (DeepSeek, vLLM, OpenRouter,
  // Mistral, Fireworks): "This model's maximum context length is 128000 tokens. However, ...".
  /maximum context length/,
  // OpenAI responses: "Your input exceeds the context window of this model."
  /exceeds the context window/,
  // Anthropic (and Claude on Bedrock and Vertex): "prompt is too long: 208310 tokens > 200000 maximum",
  // and "input length and `max_tokens` exceed context limit: 189136 + 20000 > 204648".
  /prompt is too long/,
  /exceed context limit/,
  // Gemini and Vertex (INVALID_ARGUMENT): "The input token count (1200293) exceeds the maximum
  // number of tokens allowed (1048576)."
  /exceeds the maximum number of tokens/,
  // Bedrock (ValidationException): "Input is too long for requested model.", and the Titan form
  // "Too many input tokens. Max input tokens: 8192, request input token count: 9000".
  /input is too long/,
  /too many input tokens/,
  // xAI: "This model's maximum prompt length is 131072 but the request contains 136973 tokens."
  /maximum prompt length is/,
  // Zhipu (code 1261); Moonshot ("Your request exceeded model token limit: 8192"); Qwen in
  // DashScope's compatible mode ("Range of input length should be [1, 30720]",
  // https://help.aliyun.com/zh/model-studio/error-code).
  /prompt exceeds max length/,
  /exceeded model token limit/,
  /range of input length should be/,
  // Hugging Face TGI servers: "Input validation error: `inputs` tokens + `max_new_tokens` must be <= 8193."
  /`inputs` tokens \+ `max_new_tokens` must be/,
];

/** Whether an upstream error says the input is longer than the model's context window (admin-api 11.3). */
export function isContextLengthError(facts: UpstreamErrorFacts): boolean {
  for (const code of facts.codes) if (CODES.has(code)) return true;
  return facts.messages.some((message) => {
    const lower = message.toLowerCase();
    return MESSAGES.some((pattern) => pattern.test(lower));
  });
}
