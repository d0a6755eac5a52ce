import type { FilePart, Message, Part, ToolResultPart } from '../../ir/content.js';
import type { CanonicalRequest } from '../../ir/request.js';
import type { ChatReasoningField } from '../protocol-codec.js';
import { assignMembers, type JsonObject } from '../wire-json.js';
import {
  collapseContent,
  encodeContentPart,
  encodeTextContent,
  encodeTextPart,
  isPlainText,
  type ContentEncodeContext,
} from './encode-content-part.js';
import { keepToolTurnReasoning, type ReasonedAssistant } from './keep-tool-turn-reasoning.js';
import { partExtension, readRawValue, type OpenAIChatRequestExtension } from './openai-chat-extension.js';
import {
  keptContentPartOf,
  keptMessageOf,
  type OpenAIChatAssistantMessage,
  type OpenAIChatContentPart,
  type OpenAIChatKept,
  type OpenAIChatMessage,
  type OpenAIChatSystemMessage,
  type OpenAIChatTextPart,
  type OpenAIChatToolCall,
  type OpenAIChatToolMessage,
  type OpenAIChatUserMessage,
} from './wire-types.js';

type Located = { part: Part; path: string };

type MessagesEncodeContext = ContentEncodeContext & {
  extension: OpenAIChatRequestExtension;
  /** The upstream's own member for assistant reasoning; absent: see `encodeAssistant`. */
  reasoningField?: ChatReasoningField;
};

/**
 * Canonical system parts and messages -> chat completions `messages`
 * (https://platform.openai.com/docs/api-reference/chat/create#chat-create-messages).
 */
export function encodeMessages(
  request: CanonicalRequest,
  context: MessagesEncodeContext,
): OpenAIChatMessage[] {
  const encoded: OpenAIChatMessage[] = encodeSystem(request.system, context);
  const reasoned: ReasonedAssistant[] = [];
  const developer = new Set(context.extension.developerMessages);
  request.messages.forEach((message, index) => {
    const parts = message.parts.map((part, partIndex) => ({
      part,
      path: `messages[${index}].parts[${partIndex}]`,
    }));
    switch (message.role) {
      case 'system':
        encoded.push(
          encodeSystemMessage(developer.has(index) ? 'developer' : 'system', parts, message.name, context),
        );
        return;
      case 'user':
      case 'tool':
        encoded.push(...encodeUserOrTool(message, parts, context));
        return;
      case 'assistant': {
        const { assistant, verbatim, reasoningPaths } = encodeAssistant(message, parts, context);
        encoded.push(assistant, ...verbatim);
        if (context.reasoningField === 'reasoning_content' && reasoningPaths.length > 0)
          reasoned.push({ message: assistant, paths: reasoningPaths });
        return;
      }
      default: {
        const unreachable: never = message.role;
        return unreachable;
      }
    }
  });
  return reasoned.length > 0 ? keepToolTurnReasoning(encoded, { reasoned, losses: context.losses }) : encoded;
}

/** The system parts, split back into the client's messages when the extension tells how. */
function encodeSystem(
  system: readonly Part[],
  context: ContentEncodeContext & { extension: OpenAIChatRequestExtension },
): OpenAIChatSystemMessage[] {
  if (system.length === 0) return [];
  const located = system.map((part, index) => ({ part, path: `system[${index}]` }));
  const shapes = context.extension.systemMessages;
  const total = shapes?.reduce((sum, shape) => sum + shape.parts, 0);
  if (!shapes || total !== system.length)
    return [mergeText(encodeSystemMessage('system', located, undefined, context))];
  let offset = 0;
  return shapes.map((shape) => {
    const parts = located.slice(offset, (offset += shape.parts));
    return encodeSystemMessage(shape.role, parts, shape.name, context);
  });
}

/**
 * System text from another protocol arrives as several blocks; chat completions upstreams expect
 * one string (client-api 4.7: a `system` array is merged into one string).
 */
function mergeText(message: OpenAIChatSystemMessage): OpenAIChatSystemMessage {
  const { content } = message;
  if (!Array.isArray(content) || !content.every(isPlainText)) {
    return message;
  }
  return { ...message, content: content.map((part) => part.text).join('\n') };
}

function encodeSystemMessage(
  role: 'system' | 'developer',
  parts: Located[],
  name: string | undefined,
  context: ContentEncodeContext,
): OpenAIChatSystemMessage {
  const { rest, fields } = takeMessageFields(parts);
  const content = encodeTextContent(
    rest.map(({ part }) => part),
    (index) => rest[index]!.path,
    context,
  );
  return { role, content: content.length > 0 ? collapseContent(content) : '', ...named(name), ...fields };
}

/**
 * User and tool messages. Each tool result becomes a `tool` message, placed first as chat
 * completions requires them right after the assistant's tool calls; tool messages hold text only,
 * so files in tool results move to the user message that follows (recorded).
 */
function encodeUserOrTool(
  message: Message,
  parts: Located[],
  context: ContentEncodeContext,
): OpenAIChatMessage[] {
  const { rest, fields } = takeMessageFields(parts);
  const toolMessages: OpenAIChatToolMessage[] = [];
  const carried: OpenAIChatContentPart[] = [];
  const content: (OpenAIChatContentPart | OpenAIChatKept<'content-part'>)[] = [];
  const verbatim: OpenAIChatKept<'message'>[] = [];
  for (const { part, path } of rest) {
    switch (part.type) {
      case 'tool-result':
        toolMessages.push(encodeToolResult(part, path, context, carried));
        break;
      case 'text':
      case 'file': {
        const encoded = encodeContentPart(part, path, context);
        if (encoded) content.push(encoded);
        break;
      }
      case 'raw': {
        const raw = readRawValue(part);
        if (raw && 'contentPart' in raw) content.push(keptContentPartOf(raw.contentPart));
        else if (raw && 'message' in raw) verbatim.push(keptMessageOf(raw.message));
        else context.losses.dropped(path, `a raw block of ${part.protocol} has no chat completions form`);
        break;
      }
      case 'reasoning':
      case 'tool-call':
        context.losses.dropped(path, `a ${message.role} message cannot hold a ${part.type} part`);
        break;
      default: {
        const unreachable: never = part;
        return unreachable;
      }
    }
  }
  const userContent = [...carried, ...content];
  const user: OpenAIChatUserMessage[] =
    userContent.length > 0
      ? [{ role: 'user', content: collapseContent(userContent), ...named(message.name) }]
      : [];
  const encoded: OpenAIChatMessage[] = [...toolMessages, ...user, ...verbatim];
  // Message members go on the user message, else the last tool message; with neither, they are
  // all the client sent, and go back as it sent them.
  const target = user[0] ?? toolMessages.at(-1);
  if (target) assignMembers(target, fields);
  else if (Object.keys(fields).length > 0) encoded.push(keptMessageOf({ role: message.role, ...fields }));
  return encoded;
}

function encodeToolResult(
  part: ToolResultPart,
  path: string,
  context: ContentEncodeContext,
  carried: OpenAIChatContentPart[],
): OpenAIChatToolMessage {
  if (part.isError) context.losses.dropped(`${path}.isError`, 'tool messages have no error flag');
  const texts: Part[] = [];
  part.content.forEach((item, index) => {
    if (item.type === 'text') texts.push(item);
    else carryFile(item, `${path}.content[${index}]`, context, carried);
  });
  const content = encodeTextContent(texts, (index) => `${path}.content[${index}]`, context);
  return {
    role: 'tool',
    tool_call_id: part.toolCallId,
    content: content.length > 0 ? collapseContent(content) : '',
  };
}

function carryFile(
  file: FilePart,
  path: string,
  context: ContentEncodeContext,
  carried: OpenAIChatContentPart[],
): void {
  const encoded = encodeContentPart(file, path, context);
  if (!encoded) return;
  context.losses.coerced(path, 'tool messages hold text only: the file follows in a user message');
  carried.push(encoded);
}

/**
 * Assistant turns: text as `content`, tool calls as `tool_calls`. OpenAI's chat completions has no
 * input field for reasoning; an upstream that declares its own member (`reasoningField`) takes the
 * reasoning parts back in it. Without one, reasoning parts are dropped (recorded), except those
 * that came as `reasoning_content` from a chat client, which DeepSeek-style upstreams take back.
 * `reasoningPaths` locates the parts whose text went into that member.
 */
function encodeAssistant(
  message: Message,
  parts: Located[],
  context: ContentEncodeContext & { reasoningField?: ChatReasoningField },
): {
  assistant: OpenAIChatAssistantMessage;
  verbatim: OpenAIChatKept<'message'>[];
  reasoningPaths: string[];
} {
  const { rest, fields } = takeMessageFields(parts);
  const content: (OpenAIChatTextPart | OpenAIChatKept<'content-part'>)[] = [];
  const toolCalls: OpenAIChatToolCall[] = [];
  const reasoning: string[] = [];
  const reasoningPaths: string[] = [];
  const verbatim: OpenAIChatKept<'message'>[] = [];
  const reasoningField = context.reasoningField ?? 'reasoning_content';
  for (const { part, path } of rest) {
    switch (part.type) {
      case 'text':
        content.push(encodeTextPart(part, path, context));
        break;
      case 'reasoning':
        if (!context.reasoningField && !partExtension(part).reasoningContent) {
          context.losses.dropped(
            path,
            part.signature || part.redactedData
              ? 'chat completions takes no reasoning back; its signature is lost'
              : 'chat completions takes no reasoning back',
          );
          break;
        }
        // Redacted reasoning has no text for the member (its data is recorded below).
        if (!context.reasoningField || part.text !== '') {
          reasoning.push(part.text);
          reasoningPaths.push(path);
        }
        // OpenAI refuses `reasoning_details` and no chat upstream can check another vendor's token.
        if (part.signature)
          context.losses.dropped(
            `${path}.signature`,
            'chat completions upstreams take no reasoning signature',
          );
        if (part.redactedData)
          context.losses.dropped(
            `${path}.redactedData`,
            'chat completions upstreams take no redacted reasoning',
          );
        break;
      case 'tool-call':
        if (part.signature) context.losses.dropped(`${path}.signature`, 'tool calls carry no signature here');
        toolCalls.push({
          id: part.id,
          type: 'function',
          function: { name: part.name, arguments: part.arguments },
        });
        break;
      case 'raw': {
        const raw = readRawValue(part);
        if (raw && 'contentPart' in raw) content.push(keptContentPartOf(raw.contentPart));
        else if (raw && 'toolCall' in raw) toolCalls.push(raw.toolCall);
        else if (raw && 'message' in raw) verbatim.push(keptMessageOf(raw.message));
        else context.losses.dropped(path, `a raw block of ${part.protocol} has no chat completions form`);
        break;
      }
      case 'file':
      case 'tool-result':
        context.losses.dropped(path, `an assistant message cannot hold a ${part.type} part`);
        break;
      default: {
        const unreachable: never = part;
        return unreachable;
      }
    }
  }
  const empty = toolCalls.length > 0 || Object.keys(fields).length > 0 ? null : '';
  const assistant: OpenAIChatAssistantMessage = {
    role: 'assistant',
    content: content.length > 0 ? collapseContent(content) : empty,
    ...named(message.name),
    ...(reasoning.length > 0 && { [reasoningField]: reasoning.join('') }),
    ...(toolCalls.length > 0 && { tool_calls: toolCalls }),
    ...fields,
  };
  return { assistant, verbatim, reasoningPaths };
}

/**
 * Separates the raw part holding message-level fields from the content. The fields are what a chat
 * client sent beside the members the canonical form names, so they stay untyped.
 */
function takeMessageFields(parts: Located[]): { rest: Located[]; fields: JsonObject } {
  const rest: Located[] = [];
  const fields: JsonObject = {};
  for (const located of parts) {
    const raw = located.part.type === 'raw' ? readRawValue(located.part) : undefined;
    if (raw && 'messageFields' in raw) assignMembers(fields, raw.messageFields);
    else rest.push(located);
  }
  return { rest, fields };
}

function named(name: string | undefined): { name?: string } {
  return name !== undefined ? { name } : {};
}
