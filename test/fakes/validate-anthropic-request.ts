import { isRecord, type RequestProblem } from './fake-upstream.js';
import { checkMessages, checkThinkingReplayed, problem } from './validate-anthropic-messages.js';

type Json = Record<string, unknown>;

const thinkingDocs =
  'Please consult our documentation at https://docs.claude.com/en/docs/build-with-claude/extended-thinking';

/**
 * What `POST /v1/messages` refuses: the shapes of `MessageCreateParamsBase` in
 * @anthropic-ai/sdk/resources/messages/messages.d.ts and the API's documented refusals
 * (https://docs.anthropic.com/en/api/messages, https://docs.anthropic.com/en/api/errors).
 * Messages carry no `param` or `code`: the field's path leads the message.
 */
export function validateAnthropicRequest(body: unknown): RequestProblem | undefined {
  if (!isRecord(body)) return problem('Input should be a valid dictionary');
  if (body.model === undefined) return problem('model: Field required');
  if (typeof body.model !== 'string') return problem('model: Input should be a valid string');
  return (
    checkMaxTokens(body.max_tokens) ??
    checkMessages(body.messages) ??
    checkSystem(body.system) ??
    checkTools(body.tools) ??
    checkToolChoice(body.tool_choice) ??
    checkSampling(body) ??
    checkThinking(body) ??
    checkCacheControlCount(body)
  );
}

function checkMaxTokens(value: unknown): RequestProblem | undefined {
  if (value === undefined) return problem('max_tokens: Field required');
  if (typeof value !== 'number' || !Number.isInteger(value))
    return problem('max_tokens: Input should be a valid integer');
  if (value < 1) return problem('max_tokens: Input should be greater than or equal to 1');
  return undefined;
}

/** `system` is a string or a list of text blocks. */
function checkSystem(system: unknown): RequestProblem | undefined {
  if (system === undefined || typeof system === 'string') return undefined;
  if (!Array.isArray(system)) return problem('system: Input should be a valid string');
  for (const [index, block] of system.entries()) {
    if (!isRecord(block)) return problem(`system.${index}: Input should be a valid dictionary`);
    if (block.type !== 'text') return problem(`system.${index}.type: Input should be 'text'`);
    if (typeof block.text !== 'string') return problem(`system.${index}.text: Field required`);
    if (block.text === '') return problem('system: text content blocks must be non-empty');
  }
  return undefined;
}

const toolNamePattern = /^[a-zA-Z0-9_-]{1,128}$/;
/** Server tools are versioned by date: `web_search_20250305`, `code_execution_20250825`. */
const serverToolType = /^[a-z_]+_\d{8}$/;

/** Client tools have a name and an object `input_schema`; names are unique across all tools. */
function checkTools(tools: unknown): RequestProblem | undefined {
  if (tools === undefined) return undefined;
  if (!Array.isArray(tools)) return problem('tools: Input should be a valid list');
  const names = new Set<string>();
  for (const [index, tool] of tools.entries()) {
    const at = `tools.${index}`;
    if (!isRecord(tool)) return problem(`${at}: Input should be a valid dictionary`);
    const custom = tool.type === undefined || tool.type === null || tool.type === 'custom';
    if (!custom && !serverToolType.test(String(tool.type)))
      return problem(
        `${at}: Input tag '${String(tool.type)}' found using 'type' does not match any of the expected tags`,
      );
    const wrong = custom ? checkCustomTool(tool, `${at}.custom`) : undefined;
    if (wrong) return wrong;
    if (names.has(String(tool.name))) return problem('tools: Tool names must be unique.');
    names.add(String(tool.name));
  }
  return undefined;
}

function checkCustomTool(tool: Json, at: string): RequestProblem | undefined {
  if (typeof tool.name !== 'string') return problem(`${at}.name: Field required`);
  if (!toolNamePattern.test(tool.name))
    return problem(`${at}.name: String should match pattern '^[a-zA-Z0-9_-]{1,128}$'`);
  if (tool.input_schema === undefined) return problem(`${at}.input_schema: Field required`);
  if (!isRecord(tool.input_schema)) return problem(`${at}.input_schema: Input should be a valid dictionary`);
  if (tool.input_schema.type !== 'object')
    return problem(`${at}.input_schema.type: Input should be 'object'`);
  return undefined;
}

function checkToolChoice(choice: unknown): RequestProblem | undefined {
  if (choice === undefined) return undefined;
  if (!isRecord(choice)) return problem('tool_choice: Input should be a valid dictionary');
  if (!['auto', 'any', 'tool', 'none'].includes(String(choice.type)))
    return problem(
      `tool_choice: Input tag '${String(choice.type)}' found using 'type' does not match any of the expected tags: 'auto', 'any', 'tool', 'none'`,
    );
  if (choice.type === 'tool' && typeof choice.name !== 'string')
    return problem('tool_choice.tool.name: Field required');
  return undefined;
}

function checkSampling(body: Json): RequestProblem | undefined {
  return (
    checkRange(body.temperature, 'temperature', 0, 1) ??
    checkRange(body.top_p, 'top_p', 0, 1) ??
    checkRange(body.top_k, 'top_k', 0, Number.POSITIVE_INFINITY) ??
    (body.stop_sequences !== undefined &&
    !(Array.isArray(body.stop_sequences) && body.stop_sequences.every((stop) => typeof stop === 'string'))
      ? problem('stop_sequences: Input should be a valid list')
      : undefined)
  );
}

function checkRange(value: unknown, field: string, min: number, max: number): RequestProblem | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number') return problem(`${field}: Input should be a valid number`);
  if (value < min) return problem(`${field}: Input should be greater than or equal to ${min}`);
  if (value > max) return problem(`${field}: Input should be less than or equal to ${max}`);
  return undefined;
}

/**
 * `thinking` (https://docs.anthropic.com/en/docs/build-with-claude/extended-thinking): a budget of
 * at least 1024 tokens below `max_tokens`; while thinking, no sampling changes and no forced tool.
 */
function checkThinking(body: Json): RequestProblem | undefined {
  const { thinking } = body;
  if (thinking === undefined) return undefined;
  if (!isRecord(thinking)) return problem('thinking: Input should be a valid dictionary');
  const type = String(thinking.type);
  if (!['enabled', 'disabled', 'adaptive'].includes(type))
    return problem(
      `thinking: Input tag '${type}' found using 'type' does not match any of the expected tags: 'enabled', 'disabled', 'adaptive'`,
    );
  if (type === 'disabled') return undefined;
  if (type === 'enabled') {
    const budget = thinking.budget_tokens;
    if (typeof budget !== 'number' || !Number.isInteger(budget))
      return problem('thinking.enabled.budget_tokens: Field required');
    if (budget < 1024)
      return problem('thinking.enabled.budget_tokens: Input should be greater than or equal to 1024');
    if (typeof body.max_tokens === 'number' && budget >= body.max_tokens)
      return problem(
        `\`max_tokens\` must be greater than \`thinking.budget_tokens\`. ${thinkingDocs}#max-tokens-and-context-window-size`,
      );
  }
  if (body.temperature !== undefined && body.temperature !== 1)
    return problem(
      `\`temperature\` may only be set to 1 when thinking is enabled or in adaptive mode. ${thinkingDocs}#feature-compatibility`,
    );
  if (body.top_k !== undefined)
    return problem(`\`top_k\` must be unset when thinking is enabled. ${thinkingDocs}#feature-compatibility`);
  if (typeof body.top_p === 'number' && body.top_p < 0.95)
    return problem(
      `\`top_p\` must be greater than or equal to 0.95 or unset when thinking is enabled. ${thinkingDocs}#feature-compatibility`,
    );
  const choice = isRecord(body.tool_choice) ? body.tool_choice.type : undefined;
  if (choice === 'any' || choice === 'tool')
    return problem(
      `Thinking may not be enabled when tool_choice forces tool use. ${thinkingDocs}#extended-thinking-with-tool-use`,
    );
  return checkThinkingReplayed(body.messages as Json[]);
}

/** https://docs.anthropic.com/en/docs/build-with-claude/prompt-caching: at most four breakpoints. */
function checkCacheControlCount(body: Json): RequestProblem | undefined {
  const blocks: unknown[] = [
    ...(Array.isArray(body.system) ? body.system : []),
    ...(Array.isArray(body.tools) ? body.tools : []),
    ...(body.messages as Json[]).flatMap((message) =>
      Array.isArray(message.content) ? message.content : [],
    ),
  ];
  const nested = blocks.flatMap((block) =>
    isRecord(block) && Array.isArray(block.content) ? (block.content as unknown[]) : [],
  );
  const count = [...blocks, ...nested].filter(
    (block) => isRecord(block) && isRecord(block.cache_control),
  ).length;
  if (count <= 4) return undefined;
  return problem(`A maximum of 4 blocks with cache_control may be provided. Found ${count}.`);
}
