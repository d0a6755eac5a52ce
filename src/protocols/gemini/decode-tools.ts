import type { FunctionTool, Tool, ToolChoice } from '../../ir/request.js';
import {
  setOwnMember,
  asString,
  asStringArray,
  isJsonObject,
  withoutKeys,
  type JsonObject,
} from '../wire-json.js';
import { convertGeminiSchema } from './convert-gemini-schema.js';
import { GEMINI } from './gemini-extensions.js';
import { InvalidRequestError } from '../invalid-request-error.js';

/** Tool fields that are Google's own search, told apart from other server tools. */
const WEB_SEARCH_TOOLS = new Set(['googleSearch', 'googleSearchRetrieval']);
const DECLARATION_KEYS = ['name', 'description', 'parameters', 'parametersJsonSchema'];

export interface DecodedTools {
  tools: Tool[];
  /** Declaration fields beyond the canonical ones, by function name. */
  declarationExtras: Record<string, JsonObject>;
}

/**
 * `tools` (https://ai.google.dev/api/caching#Tool). Each `functionDeclarations` entry is a
 * function tool whose parameters are JSON Schema (`parametersJsonSchema` as given, `parameters`
 * converted from Gemini's OpenAPI subset); every other field of a tool (`googleSearch`,
 * `codeExecution`, `urlContext`...) is a provider tool of its own.
 */
export function decodeGeminiTools(value: unknown): DecodedTools {
  const decoded: DecodedTools = { tools: [], declarationExtras: {} };
  if (value === undefined) return decoded;
  if (!Array.isArray(value)) throw new InvalidRequestError('tools', 'must be an array');
  for (const [index, tool] of value.entries()) {
    if (!isJsonObject(tool)) throw new InvalidRequestError(`tools[${index}]`, 'must be an object');
    for (const [key, member] of Object.entries(tool)) {
      if (key !== 'functionDeclarations') {
        decoded.tools.push({
          type: 'provider',
          kind: WEB_SEARCH_TOOLS.has(key) ? 'web-search' : 'other',
          protocol: GEMINI,
          value: { [key]: member },
        });
        continue;
      }
      if (!Array.isArray(member))
        throw new InvalidRequestError(`tools[${index}].functionDeclarations`, 'must be an array');
      for (const [position, declaration] of member.entries()) {
        const path = `tools[${index}].functionDeclarations[${position}]`;
        const tool = decodeDeclaration(declaration, path);
        decoded.tools.push(tool);
        const extras = isJsonObject(declaration) ? withoutKeys(declaration, DECLARATION_KEYS) : undefined;
        if (extras) setOwnMember(decoded.declarationExtras, tool.name, extras);
      }
    }
  }
  return decoded;
}

function decodeDeclaration(declaration: unknown, path: string): FunctionTool {
  if (!isJsonObject(declaration)) throw new InvalidRequestError(path, 'must be an object');
  const name = asString(declaration.name);
  if (!name) throw new InvalidRequestError(`${path}.name`, 'is required');
  const description = asString(declaration.description);
  const { parametersJsonSchema, parameters } = declaration;
  let schema: JsonObject = { type: 'object', properties: {} };
  if (isJsonObject(parametersJsonSchema)) schema = parametersJsonSchema;
  else if (isJsonObject(parameters)) schema = convertGeminiSchema(parameters);
  return { type: 'function', name, ...(description !== undefined && { description }), parameters: schema };
}

/**
 * `toolConfig.functionCallingConfig` (https://ai.google.dev/api/caching#FunctionCallingConfig):
 * `ANY` restricted to one function is a choice of that tool; `VALIDATED` (calls or text, but
 * calls schema-checked) reads as `auto`. The whole config is kept in extensions as well.
 */
export function decodeGeminiToolChoice(toolConfig: unknown): ToolChoice | undefined {
  if (!isJsonObject(toolConfig) || !isJsonObject(toolConfig.functionCallingConfig)) return undefined;
  const config = toolConfig.functionCallingConfig;
  const allowed = asStringArray(config.allowedFunctionNames);
  switch (config.mode) {
    case 'AUTO':
    case 'VALIDATED':
      return { type: 'auto' };
    case 'NONE':
      return { type: 'none' };
    case 'ANY':
      return allowed?.length === 1 && allowed[0] !== undefined
        ? { type: 'tool', name: allowed[0] }
        : { type: 'required' };
    default:
      return undefined;
  }
}
