import { isIssuedRedactedData, signThinking } from './anthropic-messages-reply.js';
import { isRecord, type RequestProblem } from './fake-upstream.js';

type Json = Record<string, unknown>;

/** One turn as the API sees it: consecutive messages of one role are combined into a single turn. */
interface Turn {
  role: string;
  /** Each block with the index of its message and its place there. */
  blocks: { block: Json; message: number; index: number }[];
  first: number;
  last: number;
}

const blockTypes = [
  'text',
  'image',
  'document',
  'search_result',
  'thinking',
  'redacted_thinking',
  'tool_use',
  'tool_result',
  'server_tool_use',
  'web_search_tool_result',
  'web_fetch_tool_result',
  'code_execution_tool_result',
  'bash_code_execution_tool_result',
  'text_editor_code_execution_tool_result',
  'tool_search_tool_result',
  'container_upload',
  'mcp_tool_use',
  'mcp_tool_result',
  'compaction',
];
/** Blocks only the model writes, so only assistant turns hold them. */
const assistantOnly = new Set([
  'thinking',
  'redacted_thinking',
  'tool_use',
  'server_tool_use',
  'mcp_tool_use',
]);
const toolResultContent = ['text', 'image', 'document', 'search_result', 'tool_reference', 'browser_state'];
const imageMediaTypes = ['image/jpeg', 'image/png', 'image/gif', 'image/webp'];
const idPattern = /^[a-zA-Z0-9_-]+$/;

/**
 * `messages` of `MessageCreateParamsBase` (@anthropic-ai/sdk/resources/messages/messages.d.ts):
 * user and assistant turns of known content blocks, with system messages (text only) allowed
 * mid-conversation (`SystemMessageParam`), the first message the user's, every `tool_use`
 * answered by a `tool_result` at the start of the next turn
 * (https://docs.anthropic.com/en/docs/build-with-claude/tool-use).
 */
export function checkMessages(messages: unknown): RequestProblem | undefined {
  if (messages === undefined) return problem('messages: Field required');
  if (!Array.isArray(messages)) return problem('messages: Input should be a valid list');
  if (messages.length === 0) return problem('messages: at least one message is required');
  for (const [index, message] of messages.entries()) {
    const wrong = checkMessage(message, index, index === messages.length - 1);
    if (wrong) return wrong;
  }
  if ((messages[0] as Json).role !== 'user')
    return problem('messages: first message must use the "user" role');
  return (
    checkTextNotBlank(messages as Json[]) ??
    checkFinalAssistantText(messages as Json[]) ??
    checkToolPairs(toTurns(messages as Json[])) ??
    checkIssuedThinking(messages as Json[])
  );
}

/** A final assistant message (a prefill the model continues) may not end in whitespace. */
function checkFinalAssistantText(messages: Json[]): RequestProblem | undefined {
  const last = messages.at(-1);
  if (last?.role !== 'assistant') return undefined;
  const { content } = last;
  const tail =
    typeof content === 'string' ? content : Array.isArray(content) ? (content.at(-1) as Json) : undefined;
  const text = typeof tail === 'string' ? tail : tail?.type === 'text' ? String(tail.text) : undefined;
  if (text === undefined || text === '' || text.trimEnd() === text) return undefined;
  return problem('messages: final assistant content cannot end with trailing whitespace');
}

/**
 * Thinking goes back exactly as the API issued it: a `thinking` block's signature is checked
 * against its text, and `redacted_thinking` data must be the API's own
 * (https://docs.anthropic.com/en/docs/build-with-claude/extended-thinking#preserving-thinking-blocks).
 * A signature from another vendor, an empty one, or edited thinking text is refused.
 */
function checkIssuedThinking(messages: Json[]): RequestProblem | undefined {
  for (const [index, message] of messages.entries()) {
    if (message.role !== 'assistant' || !Array.isArray(message.content)) continue;
    for (const [blockIndex, block] of (message.content as Json[]).entries()) {
      const at = `messages.${index}.content.${blockIndex}`;
      if (block.type === 'thinking' && block.signature !== signThinking(String(block.thinking)))
        return problem(`${at}: Invalid \`signature\` in \`thinking\` block`);
      if (block.type === 'redacted_thinking' && !isIssuedRedactedData(String(block.data)))
        return problem(`${at}: Invalid \`data\` in \`redacted_thinking\` block`);
    }
  }
  return undefined;
}

function checkMessage(message: unknown, index: number, last: boolean): RequestProblem | undefined {
  const at = `messages.${index}`;
  if (!isRecord(message)) return problem(`${at}: Input should be a valid dictionary`);
  if (message.role !== 'user' && message.role !== 'assistant' && message.role !== 'system')
    return problem(`${at}.role: Input should be 'user', 'assistant' or 'system'`);
  const { content } = message;
  if (content === undefined) return problem(`${at}.content: Field required`);
  const empty = content === '' || (Array.isArray(content) && content.length === 0);
  if (empty && !(last && message.role === 'assistant'))
    return problem(
      `${at}: all messages must have non-empty content except for the optional final assistant message`,
    );
  if (typeof content === 'string') return undefined;
  if (!Array.isArray(content)) return problem(`${at}.content: Input should be a valid list`);
  for (const [blockIndex, block] of content.entries()) {
    const wrong = checkBlock(block, `${at}.content.${blockIndex}`, message.role);
    if (wrong) return wrong;
  }
  return undefined;
}

function checkBlock(block: unknown, at: string, role: string): RequestProblem | undefined {
  if (!isRecord(block)) return problem(`${at}: Input should be a valid dictionary`);
  const type = String(block.type);
  if (role === 'system' && type !== 'text') return problem(`${at}.type: Input should be 'text'`);
  if (!blockTypes.includes(type))
    return problem(`${at}: Input tag '${type}' found using 'type' does not match any of the expected tags`);
  if (assistantOnly.has(type) && role !== 'assistant')
    return problem(`${at}: \`${type}\` blocks can only be in \`assistant\` messages`);
  if (type === 'tool_result' && role !== 'user')
    return problem(`${at}: \`tool_result\` blocks can only be in \`user\` messages`);
  switch (type) {
    case 'text':
      return checkText(block, at);
    case 'image':
      return checkImage(block, at);
    case 'document':
      return checkDocument(block, at);
    case 'thinking':
      return required(block, at, 'thinking', ['thinking', 'signature']);
    case 'redacted_thinking':
      return required(block, at, 'redacted_thinking', ['data']);
    case 'tool_use':
      if (!isRecord(block.input)) return problem(`${at}.tool_use.input: Input should be a valid dictionary`);
      return required(block, at, 'tool_use', ['id', 'name']) ?? checkId(block.id, `${at}.tool_use.id`);
    case 'tool_result':
      return (
        required(block, at, 'tool_result', ['tool_use_id']) ??
        checkId(block.tool_use_id, `${at}.tool_result.tool_use_id`) ??
        checkToolResultContent(block.content, `${at}.tool_result.content`)
      );
    default:
      return undefined;
  }
}

function checkText(block: Json, at: string): RequestProblem | undefined {
  if (typeof block.text !== 'string') return problem(`${at}.text: Field required`);
  return undefined;
}

function checkImage(block: Json, at: string): RequestProblem | undefined {
  const { source } = block;
  if (!isRecord(source)) return problem(`${at}.image.source: Field required`);
  switch (source.type) {
    case 'base64':
      if (!imageMediaTypes.includes(String(source.media_type)))
        return problem(
          `${at}.image.source.base64.media_type: Input should be 'image/jpeg', 'image/png', 'image/gif' or 'image/webp'`,
        );
      return required(source, `${at}.image.source`, 'base64', ['data']);
    case 'url':
      return required(source, `${at}.image.source`, 'url', ['url']);
    case 'file':
      return required(source, `${at}.image.source`, 'file', ['file_id']);
    default:
      return problem(
        `${at}.image.source: Input tag '${String(source.type)}' found using 'type' does not match any of the expected tags: 'base64', 'url', 'file'`,
      );
  }
}

function checkDocument(block: Json, at: string): RequestProblem | undefined {
  const { source } = block;
  if (!isRecord(source)) return problem(`${at}.document.source: Field required`);
  const sourceAt = `${at}.document.source`;
  switch (source.type) {
    case 'base64':
      if (source.media_type !== 'application/pdf')
        return problem(`${sourceAt}.base64.media_type: Input should be 'application/pdf'`);
      return required(source, sourceAt, 'base64', ['data']);
    case 'text':
      if (source.media_type !== 'text/plain')
        return problem(`${sourceAt}.text.media_type: Input should be 'text/plain'`);
      return required(source, sourceAt, 'text', ['data']);
    case 'url':
      return required(source, sourceAt, 'url', ['url']);
    case 'file':
      return required(source, sourceAt, 'file', ['file_id']);
    case 'content':
      return source.content === undefined
        ? problem(`${sourceAt}.content.content: Field required`)
        : undefined;
    default:
      return problem(
        `${sourceAt}: Input tag '${String(source.type)}' found using 'type' does not match any of the expected tags: 'base64', 'text', 'url', 'file', 'content'`,
      );
  }
}

function checkToolResultContent(content: unknown, at: string): RequestProblem | undefined {
  if (content === undefined || typeof content === 'string') return undefined;
  if (!Array.isArray(content)) return problem(`${at}: Input should be a valid list`);
  for (const [index, block] of content.entries()) {
    const blockAt = `${at}.${index}`;
    if (!isRecord(block) || !toolResultContent.includes(String(block.type)))
      return problem(
        `${blockAt}: Input tag '${String(isRecord(block) ? block.type : block)}' found using 'type' does not match any of the expected tags: ${toolResultContent.map((type) => `'${type}'`).join(', ')}`,
      );
    const wrong =
      block.type === 'text'
        ? checkText(block, blockAt)
        : block.type === 'image'
          ? checkImage(block, blockAt)
          : undefined;
    if (wrong) return wrong;
    if (block.type === 'text' && block.text === '')
      return problem('messages: text content blocks must be non-empty');
  }
  return undefined;
}

/**
 * Text blocks are never empty, and a message's text is never whitespace alone: whitespace-only
 * blocks pass only beside text with something in it.
 */
function checkTextNotBlank(messages: Json[]): RequestProblem | undefined {
  for (const message of messages) {
    // A string is one text block.
    const { content } = message;
    const blocks =
      typeof content === 'string' ? (content === '' ? [] : [{ type: 'text', text: content }]) : content;
    if (!Array.isArray(blocks)) continue;
    const texts = (blocks as Json[])
      .filter((block) => block.type === 'text')
      .map((block) => String(block.text));
    if (texts.some((text) => text === '')) return problem('messages: text content blocks must be non-empty');
    if (texts.length > 0 && texts.every((text) => text.trim() === ''))
      return problem('messages: text content blocks must contain non-whitespace text');
  }
  return undefined;
}

function toTurns(messages: Json[]): Turn[] {
  const turns: Turn[] = [];
  messages.forEach((message, index) => {
    const content = Array.isArray(message.content) ? (message.content as Json[]) : [];
    const blocks = content.map((block, blockIndex) => ({ block, message: index, index: blockIndex }));
    const previous = turns.at(-1);
    if (previous && previous.role === message.role) {
      previous.blocks.push(...blocks);
      previous.last = index;
    } else turns.push({ role: String(message.role), blocks, first: index, last: index });
  });
  return turns;
}

/**
 * Each assistant turn's `tool_use` ids are answered in the next turn, which begins with that many
 * `tool_result` blocks; each `tool_result` answers a `tool_use` of the turn just before it.
 */
function checkToolPairs(turns: Turn[]): RequestProblem | undefined {
  for (const [position, turn] of turns.entries()) {
    const previous = turns[position - 1];
    const asked = new Set(
      previous?.role === 'assistant'
        ? previous.blocks
            .filter(({ block }) => block.type === 'tool_use')
            .map(({ block }) => String(block.id))
        : [],
    );
    for (const { block, message, index } of turn.blocks) {
      if (block.type === 'tool_result' && !asked.has(String(block.tool_use_id)))
        return problem(
          `messages.${message}.content.${index}: unexpected \`tool_use_id\` found in \`tool_result\` blocks: ${String(block.tool_use_id)}. Each \`tool_result\` block must have a corresponding \`tool_use\` block in the previous message.`,
        );
    }
    if (turn.role !== 'assistant') continue;
    const uses = turn.blocks
      .filter(({ block }) => block.type === 'tool_use')
      .map(({ block }) => String(block.id));
    if (uses.length === 0) continue;
    const next = turns[position + 1];
    const answered = new Set(
      next?.blocks
        .filter(({ block }) => block.type === 'tool_result')
        .map(({ block }) => String(block.tool_use_id)),
    );
    const missing = uses.filter((id) => !answered.has(id));
    if (missing.length > 0)
      return problem(
        `messages.${turn.last}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${missing.join(', ')}. Each \`tool_use\` block must have a corresponding \`tool_result\` block in the next message.`,
      );
    const leading = next!.blocks.findIndex(({ block }) => block.type !== 'tool_result');
    if (leading !== -1 && leading < answered.size)
      return problem(
        `messages.${next!.first}: Did not find ${answered.size} \`tool_result\` block(s) at the beginning of this message. Messages following \`tool_use\` blocks must begin with a matching number of \`tool_result\` blocks.`,
      );
  }
  return undefined;
}

/**
 * With thinking on, a request that continues a tool loop (its final user turn holds tool results) replays the
 * assistant turn that called the tools with its thinking first
 * (https://docs.anthropic.com/en/docs/build-with-claude/extended-thinking#preserving-thinking-blocks).
 */
export function checkThinkingReplayed(messages: Json[]): RequestProblem | undefined {
  const turns = toTurns(messages);
  const last = turns.at(-1);
  const caller = turns.at(-2);
  if (!last || !caller || last.role !== 'user' || caller.role !== 'assistant') return undefined;
  if (!last.blocks.some(({ block }) => block.type === 'tool_result')) return undefined;
  const first = caller.blocks[0];
  if (!first || first.block.type === 'thinking' || first.block.type === 'redacted_thinking') return undefined;
  return problem(
    `messages.${first.message}.content.${first.index}.type: Expected \`thinking\` or \`redacted_thinking\`, but found \`${String(first.block.type)}\`. When \`thinking\` is enabled, a final \`assistant\` message must start with a thinking block (preceeding the lastmost set of \`tool_use\` and \`tool_result\` blocks). We recommend you include thinking blocks from previous turns. To avoid this requirement, disable \`thinking\`. Please consult our documentation at https://docs.claude.com/en/docs/build-with-claude/extended-thinking`,
  );
}

function required(block: Json, at: string, tag: string, fields: string[]): RequestProblem | undefined {
  const absent = fields.find((field) => typeof block[field] !== 'string');
  return absent ? problem(`${at}.${tag}.${absent}: Field required`) : undefined;
}

function checkId(id: unknown, at: string): RequestProblem | undefined {
  return idPattern.test(String(id))
    ? undefined
    : problem(`${at}: String should match pattern '^[a-zA-Z0-9_-]+$'`);
}

export function problem(message: string): RequestProblem {
  return { message };
}
