import type { ClientProtocolName } from '../../protocols/protocol-codec.js';
import { asArray, isJsonObject, membersOf, type JsonObject } from '../../protocols/wire-json.js';

/** The model capabilities a client request uses: a model known to lack one cannot answer it. */
export interface RequestNeeds {
  tools: boolean;
  vision: boolean;
  jsonSchema: boolean;
}

/**
 * Which capabilities `body`, a request of `protocol` as the client sent it, uses. Read leniently,
 * never throwing: a member of the wrong type counts as not used, and refusing it is left to the
 * protocol's decoder or the upstream, which answer with the protocol's own error.
 */
export function requestNeeds(protocol: ClientProtocolName, body: Record<string, unknown>): RequestNeeds {
  switch (protocol) {
    case 'openai-chat':
      return chatNeeds(body);
    case 'openai-responses':
      return responsesNeeds(body);
    case 'anthropic-messages':
      return messagesNeeds(body);
    case 'gemini':
      return geminiNeeds(body);
    default: {
      const unknown: never = protocol;
      return unknown;
    }
  }
}

/** https://platform.openai.com/docs/api-reference/chat/create */
function chatNeeds(body: JsonObject): RequestNeeds {
  return {
    // `functions` is the deprecated form of `tools`, still accepted.
    tools: asArray(body.tools).length > 0 || asArray(body.functions).length > 0,
    vision: asArray(body.messages).some((message) =>
      asArray(membersOf(message).content).some((part) => hasType(part, 'image_url')),
    ),
    jsonSchema: hasType(body.response_format, 'json_schema'),
  };
}

/** https://platform.openai.com/docs/api-reference/responses/create */
function responsesNeeds(body: JsonObject): RequestNeeds {
  return {
    tools: asArray(body.tools).length > 0,
    vision: asArray(body.input).some(responsesItemHoldsImage) || promptVariablesHoldImage(body.prompt),
    jsonSchema: hasType(membersOf(body.text).format, 'json_schema'),
  };
}

/**
 * An input item that is an image, or holds one: a message's `content`, or the `output` of a
 * function or custom tool call given as a list of content parts.
 */
function responsesItemHoldsImage(item: unknown): boolean {
  if (!isJsonObject(item)) return false;
  return (
    item.type === 'input_image' ||
    asArray(item.content).some(isInputImage) ||
    asArray(item.output).some(isInputImage)
  );
}

/** A reusable prompt's variables may be images too. */
function promptVariablesHoldImage(prompt: unknown): boolean {
  const variables = membersOf(prompt).variables;
  return isJsonObject(variables) && Object.values(variables).some(isInputImage);
}

function isInputImage(part: unknown): boolean {
  return hasType(part, 'input_image');
}

/** https://docs.anthropic.com/en/api/messages */
function messagesNeeds(body: JsonObject): RequestNeeds {
  return {
    tools: asArray(body.tools).length > 0,
    vision: asArray(body.messages).some((message) =>
      asArray(membersOf(message).content).some(anthropicBlockHoldsImage),
    ),
    // Structured outputs (https://docs.anthropic.com/en/docs/build-with-claude/structured-outputs):
    // `output_config.format` now, `output_format` in the beta that came first.
    jsonSchema:
      hasType(body.output_format, 'json_schema') ||
      hasType(membersOf(body.output_config).format, 'json_schema'),
  };
}

/** An `image` block, or a tool result or document whose content holds one. */
function anthropicBlockHoldsImage(block: unknown): boolean {
  if (!isJsonObject(block)) return false;
  switch (block.type) {
    case 'image':
      return true;
    case 'tool_result':
      return asArray(block.content).some(isAnthropicImage);
    case 'document':
      return asArray(membersOf(block.source).content).some(isAnthropicImage);
    default:
      return false;
  }
}

function isAnthropicImage(block: unknown): boolean {
  return hasType(block, 'image');
}

/**
 * https://ai.google.dev/api/generate-content#request-body. Google reads JSON as proto3 does, the
 * snake_case spelling of every member as well as the camelCase one, so clients send either.
 */
function geminiNeeds(body: JsonObject): RequestNeeds {
  const system = body.systemInstruction ?? body.system_instruction;
  const generationConfig = membersOf(body.generationConfig ?? body.generation_config);
  return {
    tools: asArray(body.tools).some(geminiToolIsDeclared),
    vision:
      asArray(body.contents).some((content) => geminiPartsHoldImage(membersOf(content).parts)) ||
      geminiPartsHoldImage(membersOf(system).parts),
    jsonSchema: GEMINI_SCHEMA_KEYS.some((key) => generationConfig[key] != null),
  };
}

const GEMINI_DECLARATION_KEYS = new Set(['functionDeclarations', 'function_declarations']);
const GEMINI_SCHEMA_KEYS = [
  'responseSchema',
  'response_schema',
  'responseJsonSchema',
  'response_json_schema',
];

/**
 * A `Tool` (https://ai.google.dev/api/caching#Tool) that gives the model something to call:
 * function declarations, or a built-in tool (`googleSearch`, `codeExecution`...), whose
 * configuration may be an empty object.
 */
function geminiToolIsDeclared(tool: unknown): boolean {
  if (!isJsonObject(tool)) return false;
  return Object.keys(tool).some((key) =>
    GEMINI_DECLARATION_KEYS.has(key) ? asArray(tool[key]).length > 0 : tool[key] != null,
  );
}

/** Parts (https://ai.google.dev/api/caching#Part) holding an image, a function response's own parts included. */
function geminiPartsHoldImage(parts: unknown): boolean {
  return asArray(parts).some((part) => {
    if (geminiPartIsImage(part)) return true;
    const response = isJsonObject(part) ? (part.functionResponse ?? part.function_response) : undefined;
    return isJsonObject(response) && asArray(response.parts).some(geminiPartIsImage);
  });
}

function geminiPartIsImage(part: unknown): boolean {
  if (!isJsonObject(part)) return false;
  return (
    geminiDataIsImage(part.inlineData ?? part.inline_data) ||
    geminiDataIsImage(part.fileData ?? part.file_data)
  );
}

/** A `Blob` or `FileData` of an image media type (media types are case-insensitive). */
function geminiDataIsImage(data: unknown): boolean {
  if (!isJsonObject(data)) return false;
  const mimeType = data.mimeType ?? data.mime_type;
  return typeof mimeType === 'string' && IMAGE_MEDIA_TYPE.test(mimeType);
}

const IMAGE_MEDIA_TYPE = /^image\//i;

function hasType(value: unknown, type: string): boolean {
  return isJsonObject(value) && value.type === type;
}
