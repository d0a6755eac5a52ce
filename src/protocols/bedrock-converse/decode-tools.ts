import type { LossLog } from '../../ir/loss.js';
import type { Tool, ToolChoice } from '../../ir/request.js';
import { InvalidRequestError } from '../invalid-request-error.js';
import { asJsonObject, asString, isJsonObject } from '../wire-json.js';
import { BEDROCK_CONVERSE } from './bedrock-converse-extensions.js';
import { decodeCachePoint } from './decode-content-block.js';

/**
 * `toolConfig` (https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_ToolConfiguration.html):
 * tool specifications become function tools; a cache point marks the tool before it; system tools
 * (`systemTool`) and later kinds are provider tools of this protocol.
 */
export function decodeToolConfig(
  value: unknown,
  losses: LossLog,
): { tools: Tool[]; toolChoice?: ToolChoice } {
  if (value === undefined || value === null) return { tools: [] };
  const config = asJsonObject(value);
  if (!config || !Array.isArray(config.tools))
    throw new InvalidRequestError('toolConfig.tools', 'must be an array');
  const tools: Tool[] = [];
  config.tools.forEach((entry, index) => {
    const path = `toolConfig.tools[${index}]`;
    if (!isJsonObject(entry)) throw new InvalidRequestError(path, 'must be an object');
    if (entry.cachePoint !== undefined) {
      const previous = tools.at(-1);
      if (previous?.type === 'function') previous.cacheControl = decodeCachePoint(entry.cachePoint);
      else losses.dropped(path, 'a cache point with no tool specification before it has no canonical form');
      return;
    }
    const spec = asJsonObject(entry.toolSpec);
    if (!spec) {
      tools.push({ type: 'provider', kind: 'other', protocol: BEDROCK_CONVERSE, value: entry });
      return;
    }
    const name = asString(spec.name);
    if (name === undefined) throw new InvalidRequestError(`${path}.toolSpec.name`, 'must be a string');
    const schema = asJsonObject(asJsonObject(spec.inputSchema)?.json);
    if (!schema)
      throw new InvalidRequestError(`${path}.toolSpec.inputSchema.json`, 'must be a JSON schema object');
    tools.push({
      type: 'function',
      name,
      ...(typeof spec.description === 'string' ? { description: spec.description } : {}),
      parameters: schema,
      ...(typeof spec.strict === 'boolean' ? { strict: spec.strict } : {}),
    });
  });
  const toolChoice = decodeToolChoice(config.toolChoice);
  return toolChoice ? { tools, toolChoice } : { tools };
}

/** `ToolChoice` (https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_ToolChoice.html) */
function decodeToolChoice(value: unknown): ToolChoice | undefined {
  if (value === undefined || value === null) return undefined;
  const choice = asJsonObject(value);
  if (choice?.auto !== undefined) return { type: 'auto' };
  if (choice?.any !== undefined) return { type: 'required' };
  const name = asString(asJsonObject(choice?.tool)?.name);
  if (name !== undefined) return { type: 'tool', name };
  throw new InvalidRequestError('toolConfig.toolChoice', 'must be auto, any or tool');
}
