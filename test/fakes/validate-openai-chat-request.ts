import { isRecord, type RequestProblem } from './fake-upstream.js';
import {
  checkEnum,
  checkFunctionName,
  checkMaxLength,
  checkNumber,
  checkParameters,
  checkStrictSchema,
  checkString,
  emptyArray,
  invalidType,
  invalidValue,
  missing,
} from './openai-request-problems.js';

type Json = Record<string, unknown>;

/**
 * What `POST /v1/chat/completions` refuses: the shapes of `ChatCompletionCreateParamsBase` in
 * openai/resources/chat/completions/completions.d.ts and the API's documented refusals
 * (https://platform.openai.com/docs/api-reference/chat/create). Unknown fields pass: compatible
 * vendors take their own.
 */
export function validateOpenAIChatRequest(body: unknown): RequestProblem | undefined {
  if (!isRecord(body)) return { message: 'We could not parse the JSON body of your request.' };
  if (typeof body.model !== 'string' || body.model === '')
    return { message: 'you must provide a model parameter', param: null, code: null };
  return checkMessages(body.messages) ?? checkTools(body) ?? checkOptions(body);
}

const roles = ['system', 'assistant', 'user', 'function', 'tool', 'developer'];
const partTypes: Record<string, readonly string[]> = {
  system: ['text'],
  developer: ['text'],
  user: ['text', 'image_url', 'input_audio', 'file'],
  assistant: ['text', 'refusal'],
  tool: ['text'],
};

function checkMessages(messages: unknown): RequestProblem | undefined {
  if (messages === undefined) return missing('messages');
  if (!Array.isArray(messages)) return invalidType('messages', 'an array', messages);
  if (messages.length === 0) return emptyArray('messages');
  for (const [index, message] of messages.entries()) {
    const problem = checkMessage(message, `messages[${index}]`);
    if (problem) return problem;
  }
  return checkToolReplies(messages as Json[]);
}

function checkMessage(message: unknown, at: string): RequestProblem | undefined {
  if (!isRecord(message)) return invalidType(at, 'an object', message);
  const { role } = message;
  if (role === undefined) return missing(`${at}.role`);
  if (typeof role !== 'string' || !roles.includes(role)) return invalidValue(`${at}.role`, role, roles);
  switch (role) {
    case 'assistant':
      return checkAssistant(message, at);
    case 'tool':
      return (
        checkString(message.tool_call_id, `${at}.tool_call_id`) ??
        checkContent(message.content, `${at}.content`, partTypes.tool!)
      );
    case 'function':
      return (
        checkString(message.name, `${at}.name`) ??
        (message.content === null ? undefined : checkString(message.content, `${at}.content`))
      );
    default:
      return checkContent(message.content, `${at}.content`, partTypes[role]!);
  }
}

/** Content is a string or a non-empty array of parts of the types the role allows. */
function checkContent(content: unknown, at: string, types: readonly string[]): RequestProblem | undefined {
  if (content === undefined) return missing(at);
  if (content === null)
    return { message: "Invalid value for 'content': expected a string, got null.", param: at, code: null };
  if (typeof content === 'string') return undefined;
  if (!Array.isArray(content)) return invalidType(at, 'one of a string or array of objects', content);
  if (content.length === 0) return emptyArray(at);
  for (const [index, part] of content.entries()) {
    const problem = checkPart(part, `${at}[${index}]`, types);
    if (problem) return problem;
  }
  return undefined;
}

function checkPart(part: unknown, at: string, types: readonly string[]): RequestProblem | undefined {
  if (!isRecord(part)) return invalidType(at, 'an object', part);
  if (part.type === undefined) return missing(`${at}.type`);
  if (!types.includes(String(part.type))) return invalidValue(`${at}.type`, part.type, types);
  switch (part.type) {
    case 'text':
      return checkString(part.text, `${at}.text`);
    case 'refusal':
      return checkString(part.refusal, `${at}.refusal`);
    case 'image_url':
      if (!isRecord(part.image_url)) return missing(`${at}.image_url`);
      return (
        checkString(part.image_url.url, `${at}.image_url.url`) ??
        checkEnum(part.image_url.detail, `${at}.image_url.detail`, ['auto', 'low', 'high'])
      );
    case 'input_audio':
      if (!isRecord(part.input_audio)) return missing(`${at}.input_audio`);
      return (
        checkString(part.input_audio.data, `${at}.input_audio.data`) ??
        checkEnum(part.input_audio.format, `${at}.input_audio.format`, ['wav', 'mp3'], { required: true })
      );
    case 'file':
      if (!isRecord(part.file)) return missing(`${at}.file`);
      if (part.file.file_data === undefined && part.file.file_id === undefined)
        return missing(`${at}.file.file_data`);
      return undefined;
    default:
      return undefined;
  }
}

/** Assistant turns: content may be absent or null only beside tool calls. */
function checkAssistant(message: Json, at: string): RequestProblem | undefined {
  const calls = message.tool_calls;
  if (calls !== undefined && calls !== null) {
    if (!Array.isArray(calls)) return invalidType(`${at}.tool_calls`, 'an array', calls);
    if (calls.length === 0) return emptyArray(`${at}.tool_calls`);
    for (const [index, call] of calls.entries()) {
      const problem = checkToolCall(call, `${at}.tool_calls[${index}]`);
      if (problem) return problem;
    }
  }
  const hasCalls = Array.isArray(calls) || isRecord(message.function_call);
  if (hasCalls && (message.content === undefined || message.content === null)) return undefined;
  return checkContent(message.content, `${at}.content`, partTypes.assistant!);
}

function checkToolCall(call: unknown, at: string): RequestProblem | undefined {
  if (!isRecord(call)) return invalidType(at, 'an object', call);
  const idProblem = checkString(call.id, `${at}.id`);
  if (idProblem) return idProblem;
  const tooLong = checkMaxLength(call.id as string, `${at}.id`, 40);
  if (tooLong) return tooLong;
  if (call.type === undefined) return missing(`${at}.type`);
  if (call.type === 'custom') {
    if (!isRecord(call.custom)) return missing(`${at}.custom`);
    return (
      checkString(call.custom.name, `${at}.custom.name`) ??
      checkString(call.custom.input, `${at}.custom.input`)
    );
  }
  if (call.type !== 'function') return invalidValue(`${at}.type`, call.type, ['function', 'custom']);
  if (!isRecord(call.function)) return missing(`${at}.function`);
  return (
    checkString(call.function.name, `${at}.function.name`) ??
    checkString(call.function.arguments, `${at}.function.arguments`)
  );
}

/**
 * Every `tool` message answers a call of the assistant message before it, and every call is
 * answered before the next message that is not a tool message.
 */
function checkToolReplies(messages: Json[]): RequestProblem | undefined {
  let calls = new Set<string>();
  let unanswered = new Set<string>();
  for (const [index, message] of messages.entries()) {
    if (message.role === 'tool') {
      const id = message.tool_call_id as string;
      if (!calls.has(id))
        return {
          message:
            "Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.",
          param: `messages.[${index}].role`,
          code: null,
        };
      unanswered.delete(id);
      continue;
    }
    if (unanswered.size > 0) return missingReplies(unanswered, index);
    const ids = message.role === 'assistant' && Array.isArray(message.tool_calls) ? message.tool_calls : [];
    calls = new Set(ids.map((call) => (call as Json).id as string));
    unanswered = new Set(calls);
  }
  return unanswered.size > 0 ? missingReplies(unanswered, messages.length - 1) : undefined;
}

function missingReplies(ids: Set<string>, index: number): RequestProblem {
  return {
    message: `An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: ${[...ids].join(', ')}`,
    param: `messages.[${index}].role`,
    code: null,
  };
}

function checkTools(body: Json): RequestProblem | undefined {
  const { tools } = body;
  if (tools === undefined || tools === null) {
    if (body.tool_choice !== undefined && body.tool_choice !== null) return onlyWithTools('tool_choice');
    if (body.parallel_tool_calls !== undefined && body.parallel_tool_calls !== null)
      return onlyWithTools('parallel_tool_calls');
    return undefined;
  }
  if (!Array.isArray(tools)) return invalidType('tools', 'an array', tools);
  for (const [index, tool] of tools.entries()) {
    const at = `tools[${index}]`;
    if (!isRecord(tool)) return invalidType(at, 'an object', tool);
    if (tool.type === 'custom') {
      if (!isRecord(tool.custom)) return missing(`${at}.custom`);
      const problem = checkFunctionName(tool.custom.name, `${at}.custom.name`);
      if (problem) return problem;
      continue;
    }
    if (tool.type !== 'function') return invalidValue(`${at}.type`, tool.type, ['function', 'custom']);
    if (!isRecord(tool.function)) return missing(`${at}.function`);
    const problem =
      checkFunctionName(tool.function.name, `${at}.function.name`) ??
      checkParameters(tool.function.parameters, `${at}.function.parameters`, tool.function.name) ??
      (tool.function.strict === true
        ? checkStrictSchema(tool.function.parameters, {
            subject: `function '${String(tool.function.name)}'`,
            param: `${at}.function.parameters`,
            code: 'invalid_function_parameters',
          })
        : undefined);
    if (problem) return problem;
  }
  return checkToolChoice(body.tool_choice);
}

function onlyWithTools(param: string): RequestProblem {
  return {
    message: `Invalid value for '${param}': '${param}' is only allowed when 'tools' are specified.`,
    param,
    code: null,
  };
}

function checkToolChoice(choice: unknown): RequestProblem | undefined {
  if (choice === undefined || choice === null) return undefined;
  if (typeof choice === 'string') return checkEnum(choice, 'tool_choice', ['none', 'auto', 'required']);
  if (!isRecord(choice)) return invalidType('tool_choice', 'one of a string or object', choice);
  if (choice.type === 'function')
    return isRecord(choice.function)
      ? checkString(choice.function.name, 'tool_choice.function.name')
      : missing('tool_choice.function');
  return checkEnum(choice.type, 'tool_choice.type', ['function', 'custom', 'allowed_tools'], {
    required: true,
  });
}

function checkOptions(body: Json): RequestProblem | undefined {
  if (body.max_tokens != null && body.max_completion_tokens != null)
    return {
      message: "Setting 'max_tokens' and 'max_completion_tokens' at the same time is not supported.",
      param: 'max_tokens',
      code: 'invalid_parameter_combination',
    };
  if (body.stream_options != null && body.stream !== true)
    return {
      message: "The 'stream_options' parameter is only allowed when 'stream' is enabled.",
      param: 'stream_options',
      code: null,
    };
  return (
    checkNumber(body.max_tokens, 'max_tokens', { min: 1, integer: true }) ??
    checkNumber(body.max_completion_tokens, 'max_completion_tokens', { min: 1, integer: true }) ??
    checkNumber(body.n, 'n', { min: 1, max: 128, integer: true }) ??
    checkNumber(body.temperature, 'temperature', { min: 0, max: 2 }) ??
    checkNumber(body.top_p, 'top_p', { min: 0, max: 1 }) ??
    checkNumber(body.presence_penalty, 'presence_penalty', { min: -2, max: 2 }) ??
    checkNumber(body.frequency_penalty, 'frequency_penalty', { min: -2, max: 2 }) ??
    checkNumber(body.top_logprobs, 'top_logprobs', { min: 0, max: 20, integer: true }) ??
    checkNumber(body.seed, 'seed', { integer: true }) ??
    checkStop(body.stop) ??
    checkEnum(body.reasoning_effort, 'reasoning_effort', reasoningEfforts) ??
    checkResponseFormat(body.response_format)
  );
}

const reasoningEfforts = ['none', 'minimal', 'low', 'medium', 'high', 'xhigh', 'max'];

function checkStop(stop: unknown): RequestProblem | undefined {
  if (stop === undefined || stop === null || typeof stop === 'string') return undefined;
  if (!Array.isArray(stop)) return invalidType('stop', 'one of a string or array of strings', stop);
  if (stop.length > 4)
    return {
      message: `Invalid 'stop': array too long. Expected an array with maximum length 4, but got an array with length ${stop.length} instead.`,
      param: 'stop',
      code: 'array_above_max_length',
    };
  return undefined;
}

function checkResponseFormat(format: unknown): RequestProblem | undefined {
  if (format === undefined || format === null) return undefined;
  if (!isRecord(format)) return invalidType('response_format', 'an object', format);
  const wrong = checkEnum(format.type, 'response_format.type', ['text', 'json_object', 'json_schema'], {
    required: true,
  });
  if (wrong || format.type !== 'json_schema') return wrong;
  if (!isRecord(format.json_schema)) return missing('response_format.json_schema');
  const { name, schema, strict } = format.json_schema;
  const wrongName = checkString(name, 'response_format.json_schema.name');
  if (wrongName || strict !== true) return wrongName;
  return checkStrictSchema(schema, {
    subject: `response_format '${String(name)}'`,
    param: 'response_format',
    code: null,
  });
}
