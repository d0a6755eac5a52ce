import type {
  FilePart,
  IssuedToken,
  Message,
  Part,
  RawPart,
  TextPart,
  ToolCallPart,
} from '../../ir/content.js';
import type { LossLog } from '../../ir/loss.js';
import { decodeContent, type ContentDecodeState } from './decode-content-part.js';
import { InvalidRequestError } from '../invalid-request-error.js';
import { asString, isJsonObject, withoutKeys, type JsonObject } from '../wire-json.js';
import {
  decodeReasoningDetails,
  decodeToolCallExtraContent,
  withToolCallSignature,
} from './reasoning-details.js';
import { OPENAI_CHAT, rawPart, type SystemMessageShape } from './openai-chat-extension.js';

export interface DecodedMessages {
  system: Part[];
  messages: Message[];
  systemMessages?: SystemMessageShape[];
  developerMessages?: number[];
}

/** Keys of each message kind that map to the canonical form; the rest travels in a raw part. */
const knownKeys = {
  system: new Set(['role', 'content', 'name']),
  user: new Set(['role', 'content', 'name']),
  assistant: new Set(['role', 'content', 'name', 'tool_calls', 'reasoning_content', 'reasoning_details']),
  tool: new Set(['role', 'content', 'tool_call_id']),
};

/**
 * `messages` (https://platform.openai.com/docs/api-reference/chat/create#chat-create-messages).
 * The leading `system` / `developer` messages become the canonical system parts (developer is
 * OpenAI's newer name for the same instructions); later ones stay in place as system messages.
 * Assistant reasoning becomes reasoning parts (see `decodeAssistant`); the legacy `function` role
 * travels whole in a raw part.
 */
export function decodeMessages(
  value: unknown,
  context: { losses: LossLog; state: ContentDecodeState },
): DecodedMessages {
  if (!Array.isArray(value) || value.length === 0)
    throw new InvalidRequestError('messages', 'must be a non-empty array');
  const system: Part[] = [];
  const shapes: SystemMessageShape[] = [];
  const messages: Message[] = [];
  const developerMessages: number[] = [];

  value.forEach((message: unknown, index) => {
    const path = `messages[${index}]`;
    if (!isJsonObject(message)) throw new InvalidRequestError(path, 'must be an object');
    const role = message.role;
    switch (role) {
      case 'system':
      case 'developer': {
        const parts = withMessageFields(
          decodeRequired(message, path, context.state),
          message,
          knownKeys.system,
        );
        const name = optionalName(message, path);
        if (messages.length === 0) {
          system.push(...parts);
          shapes.push({ role, parts: parts.length, ...(name !== undefined && { name }) });
          return;
        }
        if (role === 'developer') developerMessages.push(messages.length);
        messages.push({ role: 'system', parts, ...(name !== undefined && { name }) });
        return;
      }
      case 'user': {
        const parts = withMessageFields(
          decodeRequired(message, path, context.state),
          message,
          knownKeys.user,
        );
        const name = optionalName(message, path);
        messages.push({ role: 'user', parts, ...(name !== undefined && { name }) });
        return;
      }
      case 'assistant': {
        const name = optionalName(message, path);
        const parts = withMessageFields(
          decodeAssistant(message, path, context),
          message,
          knownKeys.assistant,
        );
        messages.push({ role: 'assistant', parts, ...(name !== undefined && { name }) });
        return;
      }
      case 'tool':
        messages.push({
          role: 'tool',
          parts: withMessageFields([decodeToolResult(message, path, context)], message, knownKeys.tool),
        });
        return;
      case 'function':
        messages.push({ role: 'tool', parts: [rawPart({ message })] });
        return;
      default:
        throw new InvalidRequestError(
          `${path}.role`,
          "must be one of 'system', 'developer', 'user', 'assistant', 'tool', 'function'",
        );
    }
  });

  const plainSystem = shapes.length === 1 && shapes[0]?.role === 'system' && shapes[0].name === undefined;
  return {
    system,
    messages,
    ...(shapes.length > 0 && !plainSystem && { systemMessages: shapes }),
    ...(developerMessages.length > 0 && { developerMessages }),
  };
}

function decodeRequired(message: JsonObject, path: string, state: ContentDecodeState): Part[] {
  if (message.content === undefined || message.content === null)
    throw new InvalidRequestError(`${path}.content`, 'is required');
  return decodeContent(message.content, `${path}.content`, state);
}

/**
 * An assistant turn. Reasoning comes as `reasoning_content` (DeepSeek, vLLM, ...) or, with the
 * signatures the gateway's replies carry, as `reasoning_details`, which then rules: the OpenAI
 * SDK's stream helper keeps only the last piece of `reasoning_content`. Parts keep the
 * `reasoning_content` marker so a chat upstream gets its reasoning back.
 */
function decodeAssistant(
  message: JsonObject,
  path: string,
  context: { losses: LossLog; state: ContentDecodeState },
): Part[] {
  const calls: (ToolCallPart | RawPart)[] = [];
  if (message.tool_calls !== undefined && message.tool_calls !== null) {
    if (!Array.isArray(message.tool_calls))
      throw new InvalidRequestError(`${path}.tool_calls`, 'must be an array');
    message.tool_calls.forEach((call: unknown, index) =>
      calls.push(decodeToolCall(call, `${path}.tool_calls[${index}]`)),
    );
  }
  const reasoningContent = asString(message.reasoning_content) ?? '';
  const marker = reasoningContent !== '' ? { extensions: { [OPENAI_CHAT]: { reasoningContent: true } } } : {};
  const details =
    message.reasoning_details === undefined || message.reasoning_details === null
      ? undefined
      : decodeReasoningDetails(message.reasoning_details, {
          path: `${path}.reasoning_details`,
          losses: context.losses,
          toolCallIds: new Set(calls.flatMap((call) => (call.type === 'tool-call' ? [call.id] : []))),
        });
  const parts: Part[] = [];
  if (details && details.parts.length > 0)
    parts.push(...details.parts.map((part) => ({ ...part, ...marker })));
  else if (reasoningContent !== '') parts.push({ type: 'reasoning', text: reasoningContent, ...marker });
  if (message.content !== undefined && message.content !== null)
    parts.push(...decodeContent(message.content, `${path}.content`, context.state));
  const signatures = details?.toolCallSignatures ?? new Map<string, IssuedToken>();
  parts.push(
    ...calls.map((call) => (call.type === 'tool-call' ? withToolCallSignature(call, signatures) : call)),
  );
  return parts;
}

/**
 * https://platform.openai.com/docs/api-reference/chat/create#chat-create-messages-assistant-message-tool_calls;
 * a Gemini signature comes back in `extra_content`, where the gateway's replies put it.
 */
function decodeToolCall(call: unknown, path: string): ToolCallPart | RawPart {
  if (!isJsonObject(call)) throw new InvalidRequestError(path, 'must be an object');
  if (call.type !== undefined && call.type !== 'function') return rawPart({ toolCall: call });
  if (typeof call.id !== 'string') throw new InvalidRequestError(`${path}.id`, 'must be a string');
  const fn = call.function;
  if (!isJsonObject(fn) || typeof fn.name !== 'string')
    throw new InvalidRequestError(`${path}.function.name`, 'must be a string');
  if (typeof fn.arguments !== 'string')
    throw new InvalidRequestError(`${path}.function.arguments`, 'must be a JSON string');
  const signature = decodeToolCallExtraContent(call.extra_content);
  return {
    type: 'tool-call',
    id: call.id,
    name: fn.name,
    arguments: fn.arguments,
    ...(signature && { signature }),
  };
}

/** Tool messages hold text only; other parts cannot be a tool result's content and are dropped. */
function decodeToolResult(
  message: JsonObject,
  path: string,
  context: { losses: LossLog; state: ContentDecodeState },
): Part {
  if (typeof message.tool_call_id !== 'string')
    throw new InvalidRequestError(`${path}.tool_call_id`, 'must be a string');
  const content: (TextPart | FilePart)[] = [];
  const decoded =
    typeof message.content === 'string' || Array.isArray(message.content)
      ? decodeContent(message.content, `${path}.content`, context.state)
      : undefined;
  if (!decoded)
    throw new InvalidRequestError(`${path}.content`, 'must be a string or an array of content parts');
  decoded.forEach((part, index) => {
    if (part.type === 'text' || part.type === 'file') content.push(part);
    else context.losses.dropped(`${path}.content[${index}]`, `a tool result cannot hold a ${part.type} part`);
  });
  // `name` is not in OpenAI's schema, but older clients send it; Gemini needs it.
  const name = typeof message.name === 'string' ? message.name : undefined;
  return {
    type: 'tool-result',
    toolCallId: message.tool_call_id,
    ...(name !== undefined && { name }),
    content,
  };
}

function optionalName(message: JsonObject, path: string): string | undefined {
  if (message.name === undefined) return undefined;
  if (typeof message.name !== 'string') throw new InvalidRequestError(`${path}.name`, 'must be a string');
  return message.name;
}

/**
 * Message fields without a canonical home (`refusal`, `audio`, `function_call`...) ride in a raw
 * part; null ones say nothing (`refusal: null` as SDKs echo it) and are left out.
 */
function withMessageFields(parts: Part[], message: JsonObject, known: ReadonlySet<string>): Part[] {
  const rest = withoutKeys(message, known);
  const meaningful = rest && Object.entries(rest).filter(([, value]) => value !== null);
  return meaningful && meaningful.length > 0
    ? [...parts, rawPart({ messageFields: Object.fromEntries(meaningful) })]
    : parts;
}
