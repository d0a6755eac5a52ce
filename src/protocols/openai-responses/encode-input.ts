import type { Message, Part, ReasoningPart, TextPart, ToolResultPart } from '../../ir/content.js';
import {
  encodeInputFile,
  encodeInputText,
  encodeOutputText,
  type EncodeContext,
} from './encode-content-part.js';
import { isJsonObject, type JsonObject } from '../wire-json.js';
import { encodeReasoningItem } from './reasoning-item.js';
import { partDetail, PROTOCOL, readRawValue, type RequestItemDetail } from './responses-extensions.js';

type WireRole = 'user' | 'assistant' | 'system' | 'developer';

/**
 * Canonical messages as Responses input items, the inverse of `decodeInput`: text and files of
 * one message become one message item (split where the text parts came from different items),
 * tool calls `function_call` items, tool results `function_call_output` items, reasoning
 * `reasoning` items. What an item cannot hold is dropped with the loss recorded.
 */
export function encodeInput(options: {
  messages: Message[];
  detail: RequestItemDetail;
  context: EncodeContext;
}): JsonObject[] {
  const { messages, detail, context } = options;
  const items: JsonObject[] = [];
  let systemIndex = 0;
  messages.forEach((message, messageIndex) => {
    const path = `messages[${messageIndex}]`;
    const role: WireRole =
      message.role === 'system'
        ? (detail.systemRoles?.[systemIndex++] ?? 'system')
        : message.role === 'tool'
          ? 'user'
          : message.role;
    if (message.name !== undefined)
      context.losses.dropped(`${path}.name`, 'Responses messages carry no participant name');
    if (message.parts.length === 0 && message.role !== 'tool') {
      items.push({ role, content: [] });
      return;
    }
    const builder = new MessageItemBuilder(role, items, context);
    message.parts.forEach((part, partIndex) => {
      const partPath = `${path}.parts[${partIndex}]`;
      encodePart({ part, path: partPath, builder, items, detail, context, messageRole: message.role });
    });
    builder.flush();
  });
  return items;
}

function encodePart(options: {
  part: Part;
  path: string;
  builder: MessageItemBuilder;
  items: JsonObject[];
  detail: RequestItemDetail;
  context: EncodeContext;
  messageRole: Message['role'];
}): void {
  const { part, path, builder, items, detail, context, messageRole } = options;
  const { losses } = context;
  const type = part.type;
  switch (type) {
    case 'text':
      if (messageRole === 'tool')
        losses.dropped(path, 'text outside a tool result has no place in a tool message');
      else builder.addText(part, path);
      return;
    case 'file': {
      if (messageRole === 'assistant' || messageRole === 'tool') {
        losses.dropped(path, `Responses ${messageRole} turns carry no files`);
        return;
      }
      const content = encodeInputFile(part, path, context);
      if (content) builder.addContent(content);
      return;
    }
    case 'reasoning':
      builder.flush();
      encodeReasoning(part, path, items, context);
      return;
    case 'tool-call': {
      builder.flush();
      if (part.signature !== undefined)
        losses.dropped(`${path}.signature`, 'Responses function calls carry no signature');
      items.push({
        type: 'function_call',
        call_id: part.id,
        name: part.name,
        arguments: part.arguments,
        ...detail.functionCalls?.[part.id],
      });
      return;
    }
    case 'tool-result':
      builder.flush();
      items.push(encodeToolResult(part, path, detail, context));
      return;
    case 'raw': {
      const raw = part.protocol === PROTOCOL ? readRawValue(part.value) : undefined;
      if (!raw) {
        losses.dropped(path, `a raw ${part.protocol} block has no Responses form`);
      } else if ('item' in raw) {
        builder.flush();
        items.push(raw.item);
      } else {
        builder.addContent(raw.content);
      }
      return;
    }
    default: {
      const never: never = type;
      return never;
    }
  }
}

/** Reasoning goes back only as an item this protocol produced (its id, its encrypted content). */
function encodeReasoning(
  part: ReasoningPart,
  path: string,
  items: JsonObject[],
  context: EncodeContext,
): void {
  if (!partDetail(part.extensions)) {
    context.losses.dropped(path, 'reasoning from another protocol cannot be replayed to Responses');
    return;
  }
  if (part.signature !== undefined)
    context.losses.dropped(`${path}.signature`, 'Responses reasoning carries no signature');
  items.push(encodeReasoningItem(part, undefined));
}

function encodeToolResult(
  part: ToolResultPart,
  path: string,
  detail: RequestItemDetail,
  context: EncodeContext,
): JsonObject {
  const { losses } = context;
  if (part.isError) losses.dropped(`${path}.is_error`, 'Responses function call outputs carry no error flag');
  if (part.cacheControl)
    losses.dropped(`${path}.cache_control`, 'Responses has no cache marker on tool results');
  const [first] = part.content;
  let output: string | JsonObject[];
  if (part.content.length === 1 && first?.type === 'text' && !first.cacheControl) {
    output = first.text;
  } else {
    output = [];
    part.content.forEach((content, index) => {
      const contentPath = `${path}.content[${index}]`;
      const encoded =
        content.type === 'text'
          ? encodeInputText(content, contentPath, context)
          : encodeInputFile(content, contentPath, context);
      if (encoded) (output as JsonObject[]).push(encoded);
    });
    if (part.content.length === 0) output = '';
  }
  return {
    type: 'function_call_output',
    call_id: part.toolCallId,
    output,
    ...detail.functionCallOutputs?.[part.toolCallId],
  };
}

/**
 * Collects the content of one message item. Text parts that came from different message items
 * (their recorded item members differ) start a new item, so such items come back as they were.
 */
class MessageItemBuilder {
  private content: JsonObject[] = [];
  private texts: TextPart[] = [];
  private item: JsonObject | undefined;
  private itemKey: string | undefined;

  constructor(
    private readonly role: WireRole,
    private readonly items: JsonObject[],
    private readonly context: EncodeContext,
  ) {}

  addText(part: TextPart, path: string): void {
    const item = partDetail(part.extensions)?.item;
    const members = isJsonObject(item) ? item : undefined;
    const key = members ? JSON.stringify(members) : undefined;
    if (this.texts.length > 0 && key !== this.itemKey) this.flush();
    this.item = members;
    this.itemKey = key;
    const content =
      this.role === 'assistant'
        ? encodeOutputText(part, path, this.context)
        : encodeInputText(part, path, this.context);
    this.content.push(content);
    this.texts.push(part);
  }

  addContent(content: JsonObject): void {
    this.content.push(content);
  }

  flush(): void {
    if (this.content.length === 0) return;
    // Item members (id, status, phase) are those of an item a Responses client sent: written as they were.
    this.items.push(
      this.item
        ? { type: 'message', ...this.item, role: this.role, content: this.content }
        : { role: this.role, content: this.plainText() ?? this.content },
    );
    this.content = [];
    this.texts = [];
    this.item = undefined;
    this.itemKey = undefined;
  }

  /** One plain text part is written as a string, the short form every client uses. */
  private plainText(): string | undefined {
    if (this.content.length !== 1 || this.texts.length !== 1) return undefined;
    const [part] = this.texts;
    if (!part || part.cacheControl || part.extensions?.[PROTOCOL] !== undefined) return undefined;
    return part.text;
  }
}
