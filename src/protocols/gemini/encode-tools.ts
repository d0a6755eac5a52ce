import type { LossLog } from '../../ir/loss.js';
import type { CanonicalRequest, FunctionTool, ToolChoice } from '../../ir/request.js';
import { decodeGeminiToolChoice } from './decode-tools.js';
import { GEMINI, type GeminiRequestExtensions } from './gemini-extensions.js';
import { jsonEqual, type JsonObject } from '../wire-json.js';
import {
  keptOf,
  type GeminiFunctionCallingConfig,
  type GeminiFunctionDeclaration,
  type GeminiKept,
  type GeminiTool,
  type GeminiToolConfig,
} from './wire-types.js';

export interface EncodedTools {
  tools?: GeminiTool[];
  toolConfig?: GeminiToolConfig | GeminiKept<'tool-config'>;
}

/**
 * Canonical tools as `tools` and `toolConfig` (https://ai.google.dev/api/caching#Tool). Function
 * parameters go out as `parametersJsonSchema`, which takes full JSON Schema, so schemas written for
 * other vendors need no rewriting into the OpenAPI subset of `parameters`. Consecutive function
 * tools share one `functionDeclarations` entry; another vendor's web search becomes `googleSearch`.
 */
export function encodeGeminiTools(
  request: CanonicalRequest,
  options: { extensions: GeminiRequestExtensions; losses: LossLog },
): EncodedTools {
  const { losses, extensions } = options;
  const tools: GeminiTool[] = [];
  let declarations: GeminiFunctionDeclaration[] | undefined;

  for (const [index, tool] of request.tools.entries()) {
    const path = `tools[${index}]`;
    if (tool.type === 'function') {
      if (!declarations) {
        declarations = [];
        tools.push({ functionDeclarations: declarations });
      }
      declarations.push(
        encodeDeclaration(tool, { path, losses, extras: extensions.functionDeclarations?.[tool.name] }),
      );
      continue;
    }
    declarations = undefined;
    if (tool.protocol === GEMINI) tools.push(keptOf<'tool'>(tool.value));
    else if (tool.kind === 'web-search') {
      losses.coerced(path, `${tool.protocol} web search sent as googleSearch; its options do not carry over`);
      tools.push({ googleSearch: {} });
    } else losses.dropped(path, `a server tool of ${tool.protocol} that Gemini does not have`);
  }

  const encoded: EncodedTools = {};
  if (tools.length > 0) encoded.tools = tools;
  const toolConfig = encodeToolConfig(request.toolChoice, extensions.toolConfig);
  const hasFunctions = request.tools.some((tool) => tool.type === 'function');
  if (toolConfig !== undefined && (hasFunctions || toolConfig === extensions.toolConfig))
    encoded.toolConfig = toolConfig;
  else if (toolConfig !== undefined) losses.dropped('toolChoice', 'no function tools to choose from');
  if (request.parallelToolCalls === false)
    losses.dropped('parallelToolCalls', 'Gemini cannot be told to call one function at a time');
  return encoded;
}

function encodeDeclaration(
  tool: FunctionTool,
  context: { path: string; losses: LossLog; extras: JsonObject | undefined },
): GeminiFunctionDeclaration {
  if (tool.strict === true)
    context.losses.dropped(`${context.path}.strict`, 'Gemini has no strict mode for functions');
  if (tool.cacheControl)
    context.losses.dropped(`${context.path}.cacheControl`, 'Gemini has no prompt-cache markers');
  return {
    ...context.extras,
    name: tool.name,
    ...(tool.description !== undefined && { description: tool.description }),
    ...(!isEmptyObjectSchema(tool.parameters) && { parametersJsonSchema: tool.parameters }),
  };
}

/** A function without parameters is declared without a schema, which every Gemini model takes. */
function isEmptyObjectSchema(schema: Record<string, unknown>): boolean {
  return jsonEqual(schema, { type: 'object', properties: {} }) || jsonEqual(schema, {});
}

/**
 * `toolConfig.functionCallingConfig` (https://ai.google.dev/api/caching#FunctionCallingConfig).
 * A Gemini client's own config goes out again while it still means the same choice.
 */
function encodeToolConfig(
  choice: ToolChoice | undefined,
  original: JsonObject | undefined,
): GeminiToolConfig | GeminiKept<'tool-config'> | undefined {
  if (original !== undefined && jsonEqual(decodeGeminiToolChoice(original), choice))
    return keptOf<'tool-config'>(original);
  if (choice === undefined) return undefined;
  let functionCallingConfig: GeminiFunctionCallingConfig;
  switch (choice.type) {
    case 'auto':
      functionCallingConfig = { mode: 'AUTO' };
      break;
    case 'none':
      functionCallingConfig = { mode: 'NONE' };
      break;
    case 'required':
      functionCallingConfig = { mode: 'ANY' };
      break;
    case 'tool':
      functionCallingConfig = { mode: 'ANY', allowedFunctionNames: [choice.name] };
      break;
    default: {
      const unhandled: never = choice;
      return unhandled;
    }
  }
  return { ...original, functionCallingConfig };
}
