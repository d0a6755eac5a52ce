import { asRecord, isRecord, type RequestProblem } from './fake-upstream.js';
import {
  checkBytes,
  checkKnownFields,
  checkScalar,
  checkStruct,
  fieldViolation,
  toCamelCase,
  toSnakeCase,
} from './gemini-request-problems.js';
import { isGemini3, isIssuedThoughtSignature } from './gemini-generate-reply.js';
import { checkGenerationConfig, checkTools } from './validate-gemini-config.js';

type Json = Record<string, unknown>;

const requestFields = [
  'model',
  'contents',
  'systemInstruction',
  'tools',
  'toolConfig',
  'safetySettings',
  'generationConfig',
  'cachedContent',
  'labels',
  'serviceTier',
  'continuationToken',
  'store',
];
/** The `data` oneof of a Part: exactly one of these. */
const dataFields = [
  'text',
  'inlineData',
  'fileData',
  'functionCall',
  'functionResponse',
  'executableCode',
  'codeExecutionResult',
  'toolCall',
  'toolResponse',
];
const partFields = [
  ...dataFields,
  'thought',
  'thoughtSignature',
  'videoMetadata',
  'partMetadata',
  'mediaResolution',
  'mediaProcessing',
  'speechMetadata',
];
const invalidRole = { message: 'Please use a valid role: user, model.' };
/** Google's documented stand-ins for a signature (https://ai.google.dev/gemini-api/docs/thought-signatures#faqs). */
const placeholderSignatures = ['skip_thought_signature_validator', 'context_engineering_is_the_way_to_go'];

/**
 * What `POST /v1beta/models/{model}:generateContent` (and `:streamGenerateContent`) refuses: the
 * `GenerateContentParameters` shapes of @google/genai (dist/genai.d.ts) as the REST proto takes
 * them, and the API's documented refusals (https://ai.google.dev/api/generate-content). The model
 * (from the path) decides the Gemini 3 rules; without one, those of older models apply.
 */
export function validateGeminiRequest(
  body: unknown,
  options: { model?: string } = {},
): RequestProblem | undefined {
  if (!isRecord(body)) return { message: 'Invalid JSON payload received. Expected an object.' };
  return (
    checkKnownFields(body, requestFields) ??
    checkContents(body.contents) ??
    checkSystemInstruction(body.systemInstruction ?? body.system_instruction) ??
    checkTools(body.tools) ??
    checkGenerationConfig(body.generationConfig ?? body.generation_config, options) ??
    checkThoughtSignatures(body.contents as Json[], options.model ?? '')
  );
}

const signatureOf = (part: unknown): unknown =>
  isRecord(part) ? (part.thoughtSignature ?? part.thought_signature) : undefined;
const functionCallOf = (part: unknown): unknown =>
  isRecord(part) ? (part.functionCall ?? part.function_call) : undefined;

/**
 * Thought signatures (https://ai.google.dev/gemini-api/docs/thought-signatures): one the model did
 * not issue (another vendor's, made up, altered) is refused anywhere, Google's placeholders
 * excepted. Gemini 3 also requires one on the first function call of each model content of the
 * current turn: every content after the last user content holding more than function responses.
 */
function checkThoughtSignatures(contents: Json[], model: string): RequestProblem | undefined {
  for (const content of contents)
    for (const part of content.parts as unknown[]) {
      const signature = signatureOf(part);
      if (
        typeof signature === 'string' &&
        !placeholderSignatures.includes(signature) &&
        !isIssuedThoughtSignature(signature)
      )
        return { message: 'Corrupted thought signature.' };
    }
  if (!isGemini3(model)) return undefined;
  const turnStart = contents.findLastIndex(
    (content) =>
      content.role !== 'model' &&
      (content.parts as unknown[]).some(
        (part) => isRecord(part) && (part.functionResponse ?? part.function_response) === undefined,
      ),
  );
  for (const [index, content] of contents.entries()) {
    if (index <= turnStart || content.role !== 'model') continue;
    const call = (content.parts as unknown[]).find((part) => functionCallOf(part) !== undefined);
    if (call === undefined || signatureOf(call) !== undefined) continue;
    const name = asRecord(functionCallOf(call)).name;
    return {
      message: `Function call is missing a thought_signature in functionCall parts. This is required for tools to work correctly, and missing thought_signature may lead to degraded model performance. Additional data, function call \`default_api:${String(name)}\` , position ${index + 1}. Please refer to https://ai.google.dev/gemini-api/docs/thought-signatures for more details.`,
    };
  }
  return undefined;
}

function checkContents(contents: unknown): RequestProblem | undefined {
  if (!Array.isArray(contents) || contents.length === 0)
    return fieldViolation('contents', 'contents is not specified');
  for (const [index, content] of contents.entries()) {
    const at = `contents[${index}]`;
    if (!isRecord(content)) return { message: `Invalid value at '${at}', ${JSON.stringify(content)}` };
    const wrong = checkKnownFields(content, ['role', 'parts'], at);
    if (wrong) return wrong;
    // A lone content may leave its role out: it is the user's.
    if (
      content.role === undefined ? contents.length > 1 : content.role !== 'user' && content.role !== 'model'
    )
      return invalidRole;
    const partsProblem = checkParts(content.parts, at);
    if (partsProblem) return partsProblem;
  }
  return checkFunctionTurns(contents as Json[]);
}

function checkParts(parts: unknown, at: string): RequestProblem | undefined {
  if (!Array.isArray(parts) || parts.length === 0)
    return fieldViolation(`${at}.parts`, 'contents.parts must not be empty.');
  for (const [index, part] of parts.entries()) {
    const wrong = checkPart(part, `${at}.parts[${index}]`);
    if (wrong) return wrong;
  }
  return undefined;
}

function checkPart(part: unknown, at: string): RequestProblem | undefined {
  if (!isRecord(part)) return { message: `Invalid value at '${at}', ${JSON.stringify(part)}` };
  const unknown = checkKnownFields(part, partFields, at);
  if (unknown) return unknown;
  const data = Object.keys(part).filter((key) => dataFields.includes(toCamelCase(key)));
  if (data.length === 0)
    return fieldViolation(`${at}.data`, "required oneof field 'data' must have one initialized field");
  if (data.length > 1)
    return {
      message: `Invalid value at '${at}' (oneof), oneof field 'data' is already set. Cannot set '${data[1]}'`,
    };
  const signature = part.thoughtSignature ?? part.thought_signature;
  const metadata =
    checkScalar(part.thought, `${at}.thought`, 'TYPE_BOOL') ??
    (signature === undefined ? undefined : checkBytes(signature, `${at}.thought_signature`));
  return (
    metadata ?? checkData(toCamelCase(data[0]!), part[data[0]!], { at, signed: signature !== undefined })
  );
}

function checkData(
  field: string,
  value: unknown,
  context: { at: string; signed: boolean },
): RequestProblem | undefined {
  const { at } = context;
  switch (field) {
    case 'text':
      if (typeof value !== 'string') return checkScalar(value, `${at}.text`, 'TYPE_STRING');
      // A signature may travel on an empty text part, as the model sends it back at a stream's end.
      if (value === '' && !context.signed)
        return {
          message:
            'Unable to submit request because it has an empty text parameter. Add a value to the parameter and try again. Learn more: https://cloud.google.com/vertex-ai/generative-ai/docs/model-reference/gemini',
        };
      return undefined;
    case 'inlineData':
      if (!isRecord(value)) return checkStruct(value, `${at}.inline_data`);
      if (typeof (value.mimeType ?? value.mime_type) !== 'string')
        return fieldViolation(`${at}.inline_data.mime_type`, 'Required field is not set.');
      return checkBytes(value.data, `${at}.inline_data.data`);
    case 'fileData':
      if (!isRecord(value) || typeof (value.fileUri ?? value.file_uri) !== 'string')
        return fieldViolation(`${at}.file_data.file_uri`, 'Required field is not set.');
      return undefined;
    case 'functionCall':
      if (!isRecord(value) || typeof value.name !== 'string' || value.name === '')
        return fieldViolation(`${at}.function_call.name`, 'Name cannot be empty.');
      return value.args === undefined ? undefined : checkStruct(value.args, `${at}.function_call.args`);
    case 'functionResponse':
      if (!isRecord(value) || typeof value.name !== 'string' || value.name === '')
        return fieldViolation(`${at}.function_response.name`, 'Name cannot be empty.');
      if (value.response === undefined)
        return fieldViolation(`${at}.function_response.response`, 'Required field is not set.');
      return checkStruct(value.response, `${at}.function_response.response`);
    default:
      return undefined;
  }
}

/**
 * Function calls and their responses pair up turn by turn
 * (https://ai.google.dev/gemini-api/docs/function-calling): a call turn follows a user turn or a
 * response turn, a response turn follows a call turn right away, with one response per call.
 */
function checkFunctionTurns(contents: Json[]): RequestProblem | undefined {
  const count = (content: Json | undefined, field: string) =>
    Array.isArray(content?.parts)
      ? (content.parts as unknown[]).filter(
          (part) => isRecord(part) && (part[field] ?? part[toSnakeCase(field)]) !== undefined,
        ).length
      : 0;
  for (const [index, content] of contents.entries()) {
    const previous = contents[index - 1];
    const responses = count(content, 'functionResponse');
    if (count(content, 'functionCall') > 0 && previous && previous.role === 'model')
      return {
        message:
          'Please ensure that function call turn comes immediately after a user turn or after a function response turn.',
      };
    if (responses === 0) continue;
    const calls = count(previous, 'functionCall');
    if (calls === 0)
      return {
        message: 'Please ensure that function response turn comes immediately after a function call turn.',
      };
    if (calls !== responses)
      return {
        message:
          'Please ensure that the number of function response parts is equal to the number of function call parts of the function call turn.',
      };
  }
  return undefined;
}

/** The system instruction holds text parts only; its role, if any, is not read. */
function checkSystemInstruction(instruction: unknown): RequestProblem | undefined {
  if (instruction === undefined) return undefined;
  if (!isRecord(instruction))
    return { message: `Invalid value at 'system_instruction', ${JSON.stringify(instruction)}` };
  const unknown = checkKnownFields(instruction, ['role', 'parts'], 'system_instruction');
  if (unknown) return unknown;
  if (!Array.isArray(instruction.parts)) return undefined;
  for (const [index, part] of instruction.parts.entries()) {
    const at = `system_instruction.parts[${index}]`;
    if (!isRecord(part) || typeof part.text !== 'string' || part.text === '')
      return fieldViolation(`${at}.data`, "required oneof field 'data' must have one initialized field");
    const other = Object.keys(part).find((key) => key !== 'text' && dataFields.includes(toCamelCase(key)));
    if (other) return fieldViolation(at, 'System instruction only supports text parts.');
  }
  return undefined;
}
