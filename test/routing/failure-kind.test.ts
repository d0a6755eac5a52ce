import { describe, expect, it } from 'vitest';
import { decodeAnthropicStreamError } from '../../src/protocols/anthropic-messages/anthropic-error-types.js';
import {
  decodeConverseStreamException,
  readConverseStreamException,
} from '../../src/protocols/bedrock-converse/bedrock-converse-exceptions.js';
import { classifyFailure, type FailureKind } from '../../src/routing/policy/failure-kind.js';

/**
 * Error bodies as the vendors send them (OpenAI, Azure, the OpenAI-compatible presets,
 * Anthropic, Gemini and Vertex, Bedrock), one case per vendor and kind, and look-alikes that must
 * stay `other`.
 */

/** Bedrock names its exception in a header; the body only carries the message. */
const bedrock = (exception: string) => ({
  'content-type': 'application/json',
  'x-amzn-errortype': `${exception}:http://internal.amazon.com/coral/com.amazon.bedrock/`,
});

type ReplyCase = [
  label: string,
  status: number,
  body: string,
  expected: FailureKind,
  headers?: Record<string, string>,
];

const reply = (status: number, body: string, headers?: Record<string, string>) =>
  classifyFailure({ kind: 'reply', status, body: Buffer.from(body), headers });

describe('classifyFailure: no reply', () => {
  it('is a timeout, for a connection error as for a limit that ran out', () => {
    expect(classifyFailure({ kind: 'transport' })).toBe('timeout');
  });
});

describe('classifyFailure: rate limits, server errors and upstream timeouts go by status', () => {
  it.each<ReplyCase>([
    [
      'OpenAI rate limit',
      429,
      '{"error":{"message":"Rate limit reached for gpt-4o in organization org-abc on tokens per min (TPM): Limit 30000, Used 29000, Requested 2000.","type":"tokens","param":null,"code":"rate_limit_exceeded"}}',
      'rate_limit',
    ],
    [
      'OpenAI quota, still a 429',
      429,
      '{"error":{"message":"You exceeded your current quota, please check your plan and billing details.","type":"insufficient_quota","param":null,"code":"insufficient_quota"}}',
      'rate_limit',
    ],
    [
      'Anthropic rate limit',
      429,
      '{"type":"error","error":{"type":"rate_limit_error","message":"Number of request tokens has exceeded your per-minute rate limit"}}',
      'rate_limit',
    ],
    [
      'Gemini RESOURCE_EXHAUSTED',
      429,
      '{"error":{"code":429,"message":"Resource has been exhausted (e.g. check quota).","status":"RESOURCE_EXHAUSTED"}}',
      'rate_limit',
    ],
    [
      'Bedrock ThrottlingException, whose "too many tokens" is no context length',
      429,
      '{"message":"Too many tokens, please wait before trying again."}',
      'rate_limit',
      bedrock('ThrottlingException'),
    ],
    [
      'OpenAI server error',
      500,
      '{"error":{"message":"The server had an error while processing your request. Sorry about that!","type":"server_error","param":null,"code":null}}',
      'server_error',
    ],
    [
      'Anthropic overloaded',
      529,
      '{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}',
      'server_error',
    ],
    [
      'Gemini UNAVAILABLE',
      503,
      '{"error":{"code":503,"message":"The model is overloaded. Please try again later.","status":"UNAVAILABLE"}}',
      'server_error',
    ],
    [
      'Bedrock ServiceUnavailableException',
      503,
      '{"message":"Bedrock is unable to process your request."}',
      'server_error',
      bedrock('ServiceUnavailableException'),
    ],
    [
      'Bedrock ModelErrorException (424)',
      424,
      '{"message":"The model returned an error while processing the request."}',
      'server_error',
      bedrock('ModelErrorException'),
    ],
    [
      'Bedrock ModelTimeoutException (408)',
      408,
      '{"message":"Model has timed out in processing the request. Try your request again."}',
      'timeout',
      bedrock('ModelTimeoutException'),
    ],
    ['a proxy HTML page', 502, '<html><body><h1>502 Bad Gateway</h1></body></html>', 'server_error'],
    [
      'a 5xx wins over what its body says',
      500,
      '{"type":"error","error":{"type":"invalid_request_error","message":"prompt is too long: 203052 tokens > 200000 maximum"}}',
      'server_error',
    ],
  ])('%s', (_label, status, body, expected, headers) => {
    expect(reply(status, body, headers)).toBe(expected);
  });
});

describe('classifyFailure: an upstream 400 saying the input is too long is context_length', () => {
  it.each<ReplyCase>([
    [
      'OpenAI chat completions',
      400,
      '{"error":{"message":"This model\'s maximum context length is 128000 tokens. However, your messages resulted in 204308 tokens. Please reduce the length of the messages.","type":"invalid_request_error","param":"messages","code":"context_length_exceeded"}}',
      'context_length',
    ],
    [
      'OpenAI responses',
      400,
      '{"error":{"message":"Your input exceeds the context window of this model. Please adjust your input and try again.","type":"invalid_request_error","param":"input","code":"context_length_exceeded"}}',
      'context_length',
    ],
    [
      'Azure OpenAI',
      400,
      '{"error":{"message":"This model\'s maximum context length is 8192 tokens. However, your messages resulted in 9116 tokens. Please reduce the length of the messages.","type":"invalid_request_error","param":"messages","code":"context_length_exceeded","status":400}}',
      'context_length',
    ],
    [
      'Groq, by its code alone',
      400,
      '{"error":{"message":"Please reduce the length of the messages or completion.","type":"invalid_request_error","param":"messages","code":"context_length_exceeded"}}',
      'context_length',
    ],
    [
      'DeepSeek, by its message alone',
      400,
      '{"error":{"message":"This model\'s maximum context length is 131072 tokens. However, you requested 131134 tokens (122942 in the messages, 8192 in the completion). Please reduce the length of the messages or completion.","type":"invalid_request_error","param":null,"code":"invalid_request_error"}}',
      'context_length',
    ],
    [
      'OpenRouter',
      400,
      '{"error":{"message":"This endpoint\'s maximum context length is 32768 tokens. However, you requested about 42832 tokens (42832 of text input). Please reduce the length of either one, or use the \\"middle-out\\" transform to compress your prompt automatically.","code":400}}',
      'context_length',
    ],
    [
      'vLLM, members at the top level',
      400,
      '{"object":"error","message":"This model\'s maximum context length is 4096 tokens. However, you requested 5000 tokens (4000 in the messages, 1000 in the completion). Please reduce the length of the messages or completion.","type":"BadRequestError","param":null,"code":400}',
      'context_length',
    ],
    [
      'Mistral',
      400,
      '{"object":"error","message":"Prompt contains 40000 tokens and 0 draft tokens, too large for model with 32768 maximum context length","type":"invalid_request_error","param":null,"code":null}',
      'context_length',
    ],
    [
      'xAI, the error as a string',
      400,
      '{"code":"Client specified an invalid argument","error":"This model\'s maximum prompt length is 131072 but the request contains 136973 tokens."}',
      'context_length',
    ],
    [
      'Zhipu code 1261',
      400,
      '{"error":{"code":"1261","message":"Prompt exceeds max length"}}',
      'context_length',
    ],
    [
      'Moonshot',
      400,
      '{"error":{"message":"Invalid request: Your request exceeded model token limit: 8192","type":"invalid_request_error"}}',
      'context_length',
    ],
    [
      'Qwen (DashScope compatible mode)',
      400,
      '{"error":{"code":"invalid_parameter_error","param":null,"message":"Range of input length should be [1, 30720]","type":"invalid_request_error"},"id":"chatcmpl-5e1a32e8","request_id":"5e1a32e8-b26c-46da-9e18-02634fb3d3bf"}',
      'context_length',
    ],
    [
      'a TGI server, 422',
      422,
      '{"error":"Input validation error: `inputs` tokens + `max_new_tokens` must be <= 8193. Given: 8000 `inputs` tokens and 512 `max_new_tokens`","error_type":"validation"}',
      'context_length',
    ],
    [
      'Anthropic prompt too long',
      400,
      '{"type":"error","error":{"type":"invalid_request_error","message":"prompt is too long: 208310 tokens > 200000 maximum"},"request_id":"req_011CVQe1dLrGNMJyE1ghG1av"}',
      'context_length',
    ],
    [
      'Anthropic input plus max_tokens',
      400,
      '{"type":"error","error":{"type":"invalid_request_error","message":"input length and `max_tokens` exceed context limit: 189136 + 20000 > 204648, decrease input length or `max_tokens` and try again"}}',
      'context_length',
    ],
    [
      'Gemini generateContent',
      400,
      '{"error":{"code":400,"message":"The input token count (132478) exceeds the maximum number of tokens allowed (131072).","status":"INVALID_ARGUMENT"}}',
      'context_length',
    ],
    [
      'Gemini streamGenerateContent, as an array',
      400,
      '[{"error":{"code":400,"message":"The input token count (1200293) exceeds the maximum number of tokens allowed (1048576).","errors":[{"message":"The input token count (1200293) exceeds the maximum number of tokens allowed (1048576).","domain":"global","reason":"badRequest"}],"status":"INVALID_ARGUMENT"}}]',
      'context_length',
    ],
    [
      'Bedrock invoke (Claude)',
      400,
      '{"message":"Input is too long for requested model."}',
      'context_length',
      bedrock('ValidationException'),
    ],
    [
      'Bedrock Converse (Claude)',
      400,
      '{"message":"The model returned the following errors: prompt is too long: 200049 tokens > 200000 maximum"}',
      'context_length',
      bedrock('ValidationException'),
    ],
    [
      'Bedrock (Titan)',
      400,
      '{"message":"Too many input tokens. Max input tokens: 8192, request input token count: 9102"}',
      'context_length',
      bedrock('ValidationException'),
    ],
    ['a plain-text body', 400, 'Input is too long for requested model.', 'context_length'],
  ])('%s', (_label, status, body, expected, headers) => {
    expect(reply(status, body, headers)).toBe(expected);
  });
});

describe('classifyFailure: a content-policy refusal is content_filter', () => {
  it.each<ReplyCase>([
    [
      'OpenAI images',
      400,
      '{"error":{"code":"content_policy_violation","message":"Your request was rejected as a result of our safety system. Your prompt may contain text that is not allowed by our safety system.","param":null,"type":"invalid_request_error"}}',
      'content_filter',
    ],
    [
      'OpenAI gpt-image moderation',
      400,
      '{"error":{"message":"Your request was rejected by the safety system. If you believe this is an error, contact us at help.openai.com and include the request ID b68e1d8f. safety_violations=[sexual].","type":"image_generation_user_error","param":null,"code":"moderation_blocked","moderation_details":{"moderation_stage":"output","categories":["sexual"]}}}',
      'content_filter',
    ],
    [
      'OpenAI reasoning models (invalid_prompt, usage policy)',
      400,
      '{"error":{"message":"Invalid prompt: your prompt was flagged as potentially violating our usage policy. Please try again with a different prompt: https://platform.openai.com/docs/guides/reasoning#advice-on-prompting","type":"invalid_request_error","param":null,"code":"invalid_prompt"}}',
      'content_filter',
    ],
    [
      'OpenAI reasoning models (invalid_prompt, safety reasons)',
      400,
      '{"error":{"message":"Invalid prompt: we\'ve limited access to this content for safety reasons. This type of information may be used to benefit or to harm people.","type":"invalid_request_error","param":null,"code":"invalid_prompt"}}',
      'content_filter',
    ],
    [
      'Azure OpenAI, with innererror ResponsibleAIPolicyViolation',
      400,
      '{"error":{"message":"The response was filtered due to the prompt triggering Azure OpenAI\'s content management policy. Please modify your prompt and retry. To learn more about our content filtering policies please read our documentation: https://go.microsoft.com/fwlink/?linkid=2198766","type":null,"param":"prompt","code":"content_filter","status":400,"innererror":{"code":"ResponsibleAIPolicyViolation","content_filter_result":{"hate":{"filtered":false,"severity":"safe"},"jailbreak":{"filtered":false,"detected":false},"self_harm":{"filtered":false,"severity":"safe"},"sexual":{"filtered":false,"severity":"safe"},"violence":{"filtered":true,"severity":"medium"}}}}}',
      'content_filter',
    ],
    [
      'Azure OpenAI, the older form without innererror',
      400,
      '{"error":{"message":"The response was filtered due to the prompt triggering Azure OpenAI\'s content management policy. Please modify your prompt and retry.","type":null,"param":"prompt","code":"content_filter","status":400}}',
      'content_filter',
    ],
    [
      'an innererror ResponsibleAIPolicyViolation under another code',
      400,
      '{"error":{"message":"The prompt was filtered.","type":"invalid_request_error","param":"prompt","code":"400","innererror":{"code":"ResponsibleAIPolicyViolation"}}}',
      'content_filter',
    ],
    [
      'Moonshot, content_filter as the type',
      400,
      '{"error":{"code":400,"message":"The request was rejected because it was considered high risk","param":"prompt","type":"content_filter"}}',
      'content_filter',
    ],
    [
      'Qwen (DashScope compatible mode)',
      400,
      '{"error":{"code":"data_inspection_failed","param":null,"message":"Input data may contain inappropriate content.","type":"data_inspection_failed"},"id":"chatcmpl-deab386b","request_id":"deab386b-2562-9a7b-b8fa-0ba9385a5c28"}',
      'content_filter',
    ],
    [
      'Zhipu code 1301',
      400,
      '{"error":{"code":"1301","message":"系统检测到输入或生成内容可能包含不安全或敏感内容，请您避免输入易产生敏感内容的提示语，感谢您的配合。"}}',
      'content_filter',
    ],
    [
      'DeepSeek, by its message alone',
      400,
      '{"error":{"message":"Content Exists Risk","type":"invalid_request_error","param":null,"code":"invalid_request_error"}}',
      'content_filter',
    ],
    [
      'Imagen on Vertex (INVALID_ARGUMENT)',
      400,
      '{"error":{"code":400,"message":"Image generation failed with the following error: The prompt could not be submitted. Your current safety filter threshold prohibited one or more words in this prompt. If you think this was an error, send feedback. Support codes: 61493863","status":"INVALID_ARGUMENT"}}',
      'content_filter',
    ],
  ])('%s', (_label, status, body, expected, headers) => {
    expect(reply(status, body, headers)).toBe(expected);
  });
});

describe('classifyFailure: look-alikes stay other', () => {
  it.each<ReplyCase>([
    [
      'OpenAI, an unknown parameter',
      400,
      '{"error":{"message":"Unrecognized request argument supplied: foo","type":"invalid_request_error","param":null,"code":null}}',
      'other',
    ],
    [
      'OpenAI, max_tokens above the output cap',
      400,
      '{"error":{"message":"max_tokens is too large: 100000. This model supports at most 16384 completion tokens, whereas you provided 100000.","type":"invalid_request_error","param":"max_tokens","code":"invalid_value"}}',
      'other',
    ],
    [
      'OpenAI, one string above its length limit',
      400,
      '{"error":{"message":"Invalid \'messages[0].content\': string too long. Expected a string with maximum length 10485760, but got a string with length 10485800 instead.","type":"invalid_request_error","param":"messages[0].content","code":"string_above_max_length"}}',
      'other',
    ],
    [
      'OpenAI, invalid_prompt for a malformed prompt',
      400,
      '{"error":{"message":"Invalid prompt: \'customer\' is not a variable of this prompt.","type":"invalid_request_error","param":"prompt","code":"invalid_prompt"}}',
      'other',
    ],
    [
      'an OpenAI-compatible server, max_tokens above the output cap',
      400,
      '{"error":{"message":"max_tokens (384000) exceeds model\'s maximum output tokens (65536) for model deepseek-v4-flash:0731","type":"invalid_request_error","param":"max_tokens","code":null}}',
      'other',
    ],
    [
      'Anthropic, max_tokens above the output cap',
      400,
      '{"type":"error","error":{"type":"invalid_request_error","message":"max_tokens: 100000 > 64000, which is the maximum allowed number of output tokens for claude-sonnet-4-20250514"}}',
      'other',
    ],
    [
      'Anthropic, a body over the byte limit (413)',
      413,
      '{"type":"error","error":{"type":"request_too_large","message":"Request exceeds the maximum allowed number of bytes."}}',
      'other',
    ],
    [
      'Gemini, a bad safety setting',
      400,
      '{"error":{"code":400,"message":"* GenerateContentRequest.safety_settings[4]: element predicate failed: $.category in (HarmCategory.HARM_CATEGORY_HATE_SPEECH, HarmCategory.HARM_CATEGORY_SEXUALLY_EXPLICIT, HarmCategory.HARM_CATEGORY_DANGEROUS_CONTENT, HarmCategory.HARM_CATEGORY_HARASSMENT, HarmCategory.HARM_CATEGORY_CIVIC_INTEGRITY)\\n","status":"INVALID_ARGUMENT"}}',
      'other',
    ],
    [
      'Vertex, a safety threshold the account may not use',
      400,
      '{"error":{"code":400,"message":"User has requested a restricted HarmBlockThreshold setting BLOCK_NONE. You can get access either (a) through an allowlist via your Google account team, or (b) by switching your account type to monthly invoiced billing.","status":"INVALID_ARGUMENT"}}',
      'other',
    ],
    [
      'Bedrock, maxTokens above the model limit',
      400,
      '{"message":"The maximum tokens you requested exceeds the model limit of 32768"}',
      'other',
      bedrock('ValidationException'),
    ],
    [
      'Bedrock, a malformed body',
      400,
      '{"message":"Malformed input request: #: extraneous key [top_p] is not permitted, please reformat your input and try again."}',
      'other',
      bedrock('ValidationException'),
    ],
    [
      'Azure, a resource blocked for its behaviour (403, not a refusal of this input)',
      403,
      '{"error":{"code":"Forbidden","message":"Your resource has been temporarily blocked because we detected behavior that may violate our content policy."}}',
      'other',
    ],
    [
      'a refused key',
      401,
      '{"error":{"message":"Incorrect API key provided: sk-abc***.","type":"invalid_request_error","param":null,"code":"invalid_api_key"}}',
      'other',
    ],
    [
      'an unknown model',
      404,
      '{"type":"error","error":{"type":"not_found_error","message":"model: claude-nonexistent"}}',
      'other',
    ],
    ['an HTML page, whatever it says', 400, '<html><body>prompt is too long</body></html>', 'other'],
    ['an empty body', 400, '', 'other'],
  ])('%s', (_label, status, body, expected, headers) => {
    expect(reply(status, body, headers)).toBe(expected);
  });
});

describe('classifyFailure: the body as parsed JSON or text', () => {
  it('reads a body already parsed', () => {
    const json = {
      type: 'error',
      error: { type: 'invalid_request_error', message: 'prompt is too long: 5 > 4' },
    };
    expect(classifyFailure({ kind: 'reply', status: 400, json })).toBe('context_length');
  });

  it('reads a body given as text', () => {
    const body = '{"error":{"code":"content_filter","message":"filtered"}}';
    expect(classifyFailure({ kind: 'reply', status: 400, body })).toBe('content_filter');
  });

  it('reads the exception from headers given as arrays', () => {
    const body = '{"message":"Input is too long for requested model."}';
    const headers = { 'x-amzn-errortype': ['ValidationException'] };
    expect(classifyFailure({ kind: 'reply', status: 400, body, headers })).toBe('context_length');
  });
});

describe('classifyFailure: an error event before the first content of a stream', () => {
  it.each<[label: string, error: { message: string; code?: string; status?: number }, expected: FailureKind]>(
    [
      [
        'OpenAI chat completions, a server error',
        {
          message: 'The server had an error while processing your request. Sorry about that!',
          code: 'server_error',
        },
        'server_error',
      ],
      [
        'Anthropic, a rate limit (still a server_error: admin-api 11.3)',
        decodeAnthropicStreamError({ type: 'rate_limit_error', message: 'Rate limited' }),
        'server_error',
      ],
      [
        'OpenAI responses, the input too long',
        {
          message:
            'Your input exceeds the context window of this model. Please adjust your input and try again.',
          code: 'context_length_exceeded',
        },
        'context_length',
      ],
      [
        'OpenAI responses through passthrough, the message alone',
        {
          message:
            'Your input exceeds the context window of this model. Please adjust your input and try again.',
        },
        'context_length',
      ],
      [
        'Gemini, the input too long',
        {
          message: 'The input token count (1054016) exceeds the maximum number of tokens allowed (1048576).',
          code: 'INVALID_ARGUMENT',
          status: 400,
        },
        'context_length',
      ],
      [
        'Azure, a content filter chunk',
        {
          message:
            "The response was filtered due to the prompt triggering Azure OpenAI's content management policy.",
          code: 'content_filter',
        },
        'content_filter',
      ],
      [
        'Bedrock Converse, validationException for the input',
        decodeConverseStreamException(readConverseStreamException('validationException')!, {
          message: 'Input is too long for requested model.',
        }),
        'context_length',
      ],
      [
        'Bedrock Converse, throttlingException',
        decodeConverseStreamException(readConverseStreamException('throttlingException')!, {
          message: 'Too many tokens, please wait before trying again.',
        }),
        'server_error',
      ],
    ],
  )('%s', (_label, error, expected) => {
    expect(classifyFailure({ kind: 'stream-error', error })).toBe(expected);
  });
});
