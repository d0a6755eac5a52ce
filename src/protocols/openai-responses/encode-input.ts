import type {
  IssuedToken,
  Message,
  Part,
  ReasoningPart,
  TextPart,
  ToolResultPart,
} from '../../ir/content.js';
import {
  encodeInputFile,
  encodeInputText,
  encodeOutputText,
  type EncodeContext,
} from './encode-content-part.js';
import { isJsonObject, type JsonObject } from '../wire-json.js';
import type {
  ResponsesFunctionCallInput,
  ResponsesFunctionCallOutput,
  ResponsesMessageInput,
  ResponsesInputContent,
  ResponsesInputItem,
  ResponsesInputRole,
  ResponsesOutputContent,
} from './wire-types.js';

/** Content of a message item: typed parts, or a raw part a Responses client sent. */
type MessageContent = ResponsesInputContent | ResponsesOutputContent | JsonObject;
import { derivedReasoningId } from './responses-ids.js';
import { encodeReasoningItem } from './reasoning-item.js';
import { partDetail, PROTOCOL, readRawValue, type RequestItemDetail } from './responses-extensions.js';

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
}): ResponsesInputItem[] {
  const { messages, detail, context } = options;
  const items: ResponsesInputItem[] = [];
  let systemIndex = 0;
  messages.forEach((message, messageIndex) => {
    const path = `messages[${messageIndex}]`;
    const role: ResponsesInputRole =
      message.role === 'system'
        ? (detail.systemRoles?.[systemIndex++] ?? 'system')
        : message.role === 'tool'
          ? 'user'
          : message.role;
    if (message.name !== undefined)
      context.losses.dropped(`${path}.name`, 'Responses messages carry no participant name');
    if (message.parts.length === 0 && message.role !== 'tool') {
      const empty: ResponsesMessageInput = { role, content: [] };
      items.push(empty);
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
  items: ResponsesInputItem[];
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
        losses.dropped(
          `${path}.signature`,
          `a ${part.signature.issuer} tool call signature cannot be replayed to OpenAI`,
        );
      const call: ResponsesFunctionCallInput = {
        type: 'function_call',
        call_id: part.id,
        name: part.name,
        arguments: part.arguments,
        ...detail.functionCalls?.[part.id],
      };
      items.push(call);
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

/**
 * Reasoning goes upstream only as OpenAI issued it: an item with its OpenAI `encrypted_content`
 * (https://platform.openai.com/docs/guides/reasoning#encrypted-reasoning-items), under its own id
 * or one derived from the token when it came through another protocol. Another vendor's token,
 * which OpenAI would refuse, and unsigned reasoning are dropped with the loss recorded. (A
 * reasoning item sent by id alone may name a stored item, but one the gateway wrote for another
 * vendor's reasoning looks the same and would not be found: history is kept by encrypted content.)
 */
function encodeReasoning(
  part: ReasoningPart,
  path: string,
  items: ResponsesInputItem[],
  context: EncodeContext,
): void {
  const tokens: [field: string, token: IssuedToken][] = [];
  if (part.signature) tokens.push(['signature', part.signature]);
  if (part.redactedData) tokens.push(['redacted_data', part.redactedData]);
  const own = tokens.find(([, token]) => token.issuer === 'openai')?.[1];
  if (own === undefined) {
    const issuers = tokens.map(([, token]) => token.issuer).join(' and ');
    context.losses.dropped(
      path,
      issuers === ''
        ? 'unsigned reasoning cannot be replayed to OpenAI'
        : `reasoning with a ${issuers} token cannot be replayed to OpenAI, which did not issue it`,
    );
    return;
  }
  for (const [field, token] of tokens) {
    if (token !== own)
      context.losses.dropped(`${path}.${field}`, `a ${token.issuer} token cannot be replayed to OpenAI`);
  }
  items.push(
    encodeReasoningItem({
      part,
      fallbackId: derivedReasoningId(own.value),
      encryptedContent: own.value,
    }),
  );
}

function encodeToolResult(
  part: ToolResultPart,
  path: string,
  detail: RequestItemDetail,
  context: EncodeContext,
): ResponsesFunctionCallOutput {
  const { losses } = context;
  if (part.isError) losses.dropped(`${path}.is_error`, 'Responses function call outputs carry no error flag');
  if (part.cacheControl)
    losses.dropped(`${path}.cache_control`, 'Responses has no cache marker on tool results');
  const [first] = part.content;
  let output: ResponsesFunctionCallOutput['output'];
  if (part.content.length === 1 && first?.type === 'text' && !first.cacheControl) {
    output = first.text;
  } else if (part.content.length === 0) {
    output = '';
  } else {
    output = part.content.flatMap((content, index) => {
      const contentPath = `${path}.content[${index}]`;
      const encoded =
        content.type === 'text'
          ? encodeInputText(content, contentPath, context)
          : encodeInputFile(content, contentPath, context);
      return encoded ? [encoded] : [];
    });
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
  private content: MessageContent[] = [];
  private texts: TextPart[] = [];
  private item: JsonObject | undefined;
  private itemKey: string | undefined;

  constructor(
    private readonly role: ResponsesInputRole,
    private readonly items: ResponsesInputItem[],
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

  addContent(content: MessageContent): void {
    this.content.push(content);
  }

  flush(): void {
    if (this.content.length === 0) return;
    // Item members (id, status, phase) are those of an item a Responses client sent: written as they were.
    const message: ResponsesMessageInput = this.item
      ? { type: 'message', ...this.item, role: this.role, content: this.content }
      : { role: this.role, content: this.plainText() ?? this.content };
    this.items.push(message);
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
