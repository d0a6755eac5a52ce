import { isRecord, type RequestProblem } from './fake-upstream.js';
import { isIssuedEncryptedContent } from './openai-responses-reply.js';
import {
  checkEnum,
  checkFunctionName,
  checkNumber,
  checkParameters,
  checkString,
  invalidType,
  invalidValue,
  missing,
} from './openai-request-problems.js';

type Json = Record<string, unknown>;

/**
 * What `POST /v1/responses` refuses: the shapes of `ResponseCreateParamsBase` and
 * `ResponseInputItem` in openai/resources/responses/responses.d.ts and the API's documented
 * refusals (https://platform.openai.com/docs/api-reference/responses/create).
 */
export function validateOpenAIResponsesRequest(body: unknown): RequestProblem | undefined {
  if (!isRecord(body)) return { message: 'We could not parse the JSON body of your request.' };
  // With a stored conversation, calls answered here may live in an earlier response.
  const stored = body.previous_response_id != null || body.conversation != null;
  return (
    checkString(body.model, 'model') ??
    checkInput(body.input, stored) ??
    checkTools(body) ??
    checkOptions(body)
  );
}

const itemTypes = [
  'message',
  'function_call',
  'function_call_output',
  'reasoning',
  'item_reference',
  'file_search_call',
  'web_search_call',
  'computer_call',
  'computer_call_output',
  'code_interpreter_call',
  'image_generation_call',
  'local_shell_call',
  'local_shell_call_output',
  'shell_call',
  'shell_call_output',
  'apply_patch_call',
  'apply_patch_call_output',
  'mcp_list_tools',
  'mcp_approval_request',
  'mcp_approval_response',
  'mcp_call',
  'custom_tool_call',
  'custom_tool_call_output',
  'tool_search_call',
  'tool_search_output',
  'additional_tools',
  'compaction',
  'compaction_trigger',
  'program',
  'program_output',
];
/** Items the model produced: what may follow a reasoning item. */
const outputTypes = new Set(itemTypes.filter((type) => !/_output$|^message$|^item_reference$/.test(type)));
const roles = ['assistant', 'system', 'developer', 'user'];
const inputPartTypes = ['input_text', 'input_image', 'input_file'];
const outputPartTypes = ['output_text', 'refusal'];

export function checkInput(input: unknown, stored: boolean): RequestProblem | undefined {
  if (input === undefined || input === null || typeof input === 'string') return undefined;
  if (!Array.isArray(input)) return invalidType('input', 'one of a string or array of objects', input);
  const callIds = new Set<string>();
  for (const [index, item] of input.entries()) {
    const at = `input[${index}]`;
    if (!isRecord(item)) return invalidType(at, 'an object', item);
    const type = item.type ?? (item.role !== undefined ? 'message' : undefined);
    if (type === undefined) return missing(`${at}.role`);
    if (!itemTypes.includes(String(type))) return invalidValue(`${at}.type`, type, itemTypes);
    const problem = checkItem(item, { at, type: String(type), callIds, stored, next: input[index + 1] });
    if (problem) return problem;
    if (type === 'function_call') callIds.add(item.call_id as string);
  }
  return undefined;
}

function checkItem(
  item: Json,
  context: { at: string; type: string; callIds: Set<string>; stored: boolean; next: unknown },
): RequestProblem | undefined {
  const { at } = context;
  switch (context.type) {
    case 'message':
      return checkMessage(item, at);
    case 'function_call':
      return (
        checkIdPrefix(item.id, `${at}.id`, 'fc') ??
        checkString(item.call_id, `${at}.call_id`) ??
        checkString(item.name, `${at}.name`) ??
        checkString(item.arguments, `${at}.arguments`)
      );
    case 'function_call_output': {
      const problem = checkString(item.call_id, `${at}.call_id`);
      if (problem) return problem;
      if (!context.stored && !context.callIds.has(item.call_id as string))
        return {
          message: `No tool call found for function call output with call_id ${String(item.call_id)}.`,
          param: 'input',
          code: null,
        };
      if (typeof item.output !== 'string' && !Array.isArray(item.output))
        return item.output === undefined
          ? missing(`${at}.output`)
          : invalidType(`${at}.output`, 'one of a string or array of objects', item.output);
      return undefined;
    }
    case 'reasoning':
      return checkReasoning(item, at, context.next);
    default:
      return undefined;
  }
}

/** Input roles take input parts; assistant turns take what the model wrote: output text or a refusal. */
function checkMessage(item: Json, at: string): RequestProblem | undefined {
  if (item.role === undefined) return missing(`${at}.role`);
  if (!roles.includes(String(item.role))) return invalidValue(`${at}.role`, item.role, roles);
  const idProblem = checkIdPrefix(item.id, `${at}.id`, 'msg');
  if (idProblem) return idProblem;
  const { content } = item;
  if (content === undefined) return missing(`${at}.content`);
  if (typeof content === 'string') return undefined;
  if (!Array.isArray(content))
    return invalidType(`${at}.content`, 'one of a string or array of objects', content);
  const types = item.role === 'assistant' ? outputPartTypes : inputPartTypes;
  for (const [index, part] of content.entries()) {
    const problem = checkPart(part, `${at}.content[${index}]`, types);
    if (problem) return problem;
  }
  return undefined;
}

function checkPart(part: unknown, at: string, types: readonly string[]): RequestProblem | undefined {
  if (!isRecord(part)) return invalidType(at, 'an object', part);
  if (part.type === undefined) return missing(`${at}.type`);
  if (!types.includes(String(part.type))) return invalidValue(`${at}.type`, part.type, types);
  switch (part.type) {
    case 'input_text':
    case 'output_text':
      return checkString(part.text, `${at}.text`);
    case 'refusal':
      return checkString(part.refusal, `${at}.refusal`);
    case 'input_image':
      if (part.image_url == null && part.file_id == null) return missing(`${at}.image_url`);
      return checkEnum(part.detail, `${at}.detail`, ['low', 'high', 'auto', 'original']);
    case 'input_file':
      if (part.file_data == null && part.file_id == null && part.file_url == null)
        return missing(`${at}.file_data`);
      return undefined;
    default:
      return undefined;
  }
}

/** A reasoning item has its id and summary, and the item it led to comes right after it. */
function checkReasoning(item: Json, at: string, next: unknown): RequestProblem | undefined {
  const idProblem = checkString(item.id, `${at}.id`) ?? checkIdPrefix(item.id, `${at}.id`, 'rs');
  if (idProblem) return idProblem;
  if (item.summary === undefined) return missing(`${at}.summary`);
  if (!Array.isArray(item.summary)) return invalidType(`${at}.summary`, 'an array', item.summary);
  for (const [index, part] of item.summary.entries()) {
    const partAt = `${at}.summary[${index}]`;
    if (!isRecord(part)) return invalidType(partAt, 'an object', part);
    const problem =
      checkEnum(part.type, `${partAt}.type`, ['summary_text'], { required: true }) ??
      checkString(part.text, `${partAt}.text`);
    if (problem) return problem;
  }
  // Encrypted reasoning is OpenAI's own: anything it did not issue fails its verification.
  // https://platform.openai.com/docs/guides/reasoning#encrypted-reasoning-items
  const encrypted = item.encrypted_content;
  if (encrypted !== undefined && encrypted !== null) {
    if (typeof encrypted !== 'string') return invalidType(`${at}.encrypted_content`, 'a string', encrypted);
    if (!isIssuedEncryptedContent(encrypted))
      return {
        message: `The encrypted content for item ${String(item.id)} could not be verified.`,
        param: null,
        code: 'invalid_encrypted_content',
      };
  }
  const nextType = isRecord(next)
    ? (next.type ?? (next.role !== undefined ? 'message' : undefined))
    : undefined;
  const followed =
    outputTypes.has(String(nextType)) ||
    (nextType === 'message' && isRecord(next) && next.role === 'assistant');
  if (followed) return undefined;
  return {
    message: `Item '${String(item.id)}' of type 'reasoning' was provided without its required following item.`,
    param: 'input',
    code: null,
  };
}

/** Item ids name their kind: `fc_` for function calls, `msg_` for messages, `rs_` for reasoning. */
function checkIdPrefix(id: unknown, param: string, prefix: string): RequestProblem | undefined {
  if (id === undefined || id === null) return undefined;
  if (typeof id === 'string' && id.startsWith(prefix)) return undefined;
  return {
    message: `Invalid '${param}': '${String(id)}'. Expected an ID that begins with '${prefix}'.`,
    param,
    code: 'invalid_value',
  };
}

/** Function tools are flat here: `{ type: 'function', name, parameters }`, not chat's `{ function: {...} }`. */
function checkTools(body: Json): RequestProblem | undefined {
  const { tools } = body;
  if (tools === undefined || tools === null) return undefined;
  if (!Array.isArray(tools)) return invalidType('tools', 'an array', tools);
  for (const [index, tool] of tools.entries()) {
    const at = `tools[${index}]`;
    if (!isRecord(tool)) return invalidType(at, 'an object', tool);
    if (tool.type === undefined) return missing(`${at}.type`);
    if (tool.type !== 'function') continue;
    const problem =
      checkFunctionName(tool.name, `${at}.name`) ??
      checkParameters(tool.parameters, `${at}.parameters`, tool.name);
    if (problem) return problem;
  }
  return undefined;
}

function checkOptions(body: Json): RequestProblem | undefined {
  return (
    checkNumber(body.max_output_tokens, 'max_output_tokens', { min: 16, integer: true }) ??
    checkNumber(body.temperature, 'temperature', { min: 0, max: 2 }) ??
    checkNumber(body.top_p, 'top_p', { min: 0, max: 1 }) ??
    checkNumber(body.top_logprobs, 'top_logprobs', { min: 0, max: 20, integer: true }) ??
    checkReasoningOptions(body.reasoning) ??
    checkTextFormat(body.text) ??
    (typeof body.tool_choice === 'string'
      ? checkEnum(body.tool_choice, 'tool_choice', ['none', 'auto', 'required'])
      : undefined)
  );
}

function checkReasoningOptions(reasoning: unknown): RequestProblem | undefined {
  if (reasoning === undefined || reasoning === null) return undefined;
  if (!isRecord(reasoning)) return invalidType('reasoning', 'an object', reasoning);
  return (
    checkEnum(reasoning.effort, 'reasoning.effort', [
      'none',
      'minimal',
      'low',
      'medium',
      'high',
      'xhigh',
      'max',
    ]) ?? checkEnum(reasoning.summary, 'reasoning.summary', ['auto', 'concise', 'detailed'])
  );
}

/** `text.format` is flat too: a JSON schema format has its `name` and `schema` beside `type`. */
function checkTextFormat(text: unknown): RequestProblem | undefined {
  if (!isRecord(text) || !isRecord(text.format)) return undefined;
  const { format } = text;
  const wrong = checkEnum(format.type, 'text.format.type', ['text', 'json_object', 'json_schema'], {
    required: true,
  });
  if (wrong || format.type !== 'json_schema') return wrong;
  if (format.schema === undefined) return missing('text.format.schema');
  const nameProblem = checkString(format.name, 'text.format.name');
  if (nameProblem || format.strict !== true) return nameProblem;
  const problem = strictSchemaProblem(format.schema, []);
  return (
    problem && {
      message: `Invalid schema for response_format '${String(format.name)}': In context=(${problem.context
        .map((key) => `'${key}'`)
        .join(', ')}), ${problem.reason}`,
      param: 'text.format.schema',
      code: 'invalid_json_schema',
    }
  );
}

/**
 * Strict structured outputs take a subset of JSON Schema: every object closes its properties
 * (`additionalProperties: false`) and requires all of them
 * (https://platform.openai.com/docs/guides/structured-outputs#supported-schemas).
 */
function strictSchemaProblem(
  schema: unknown,
  context: string[],
): { context: string[]; reason: string } | undefined {
  if (!isRecord(schema)) return undefined;
  const properties = isRecord(schema.properties) ? schema.properties : undefined;
  if (schema.type === 'object' || properties) {
    if (schema.additionalProperties !== false)
      return { context, reason: "'additionalProperties' is required to be supplied and to be false." };
    const required = Array.isArray(schema.required) ? schema.required : [];
    const missingKey = Object.keys(properties ?? {}).find((key) => !required.includes(key));
    if (missingKey !== undefined)
      return {
        context,
        reason: `'required' is required to be supplied and to be an array including every key in properties. Missing '${missingKey}'.`,
      };
  }
  for (const [key, value] of Object.entries(properties ?? {})) {
    const problem = strictSchemaProblem(value, [...context, 'properties', key]);
    if (problem) return problem;
  }
  for (const key of ['$defs', 'definitions']) {
    const definitions = schema[key];
    if (!isRecord(definitions)) continue;
    for (const [name, value] of Object.entries(definitions)) {
      const problem = strictSchemaProblem(value, [...context, key, name]);
      if (problem) return problem;
    }
  }
  if (schema.items !== undefined) {
    const problem = strictSchemaProblem(schema.items, [...context, 'items']);
    if (problem) return problem;
  }
  for (const key of ['anyOf', 'allOf']) {
    const variants = schema[key];
    if (!Array.isArray(variants)) continue;
    for (const [index, value] of variants.entries()) {
      const problem = strictSchemaProblem(value, [...context, key, String(index)]);
      if (problem) return problem;
    }
  }
  return undefined;
}
