import type { FilePart, Message, Part, Role, TextPart } from '../../ir/content.js';
import type { LossLog } from '../../ir/loss.js';
import { setOwnMember, isJsonObject, withoutKeys, asString, type JsonObject } from '../wire-json.js';
import { decodeContentPart } from './decode-content-part.js';
import { fieldError, requireString } from '../invalid-request-error.js';
import { decodeReasoningItem, isToolCallSignature } from './reasoning-item.js';
import { rawItem, type RequestItemDetail } from './responses-extensions.js';

/**
 * The request `input` (https://platform.openai.com/docs/api-reference/responses/create#responses-create-input):
 * a string (one user message) or a list of items. Consecutive assistant-side items (assistant
 * messages, function calls, reasoning) form one assistant message and consecutive function call
 * outputs one tool message, the way the other protocols group a turn; user, system and developer
 * messages stay one message each. Unknown items travel whole as raw parts. A reasoning item with
 * no summary holding a Gemini signature, right after a `function_call` item, is that call's
 * signature (the gateway writes a call's signature so, see `toolCallSignatureItem`).
 */
export function decodeInput(options: {
  input: unknown;
  losses: LossLog;
  detail: RequestItemDetail;
}): Message[] {
  const { input, losses, detail } = options;
  if (input === undefined || input === null) return [];
  if (typeof input === 'string') return [{ role: 'user', parts: [{ type: 'text', text: input }] }];
  if (!Array.isArray(input))
    throw fieldError({ field: 'input', value: input, expected: 'a string or an array' });
  const messages = new MessageSequence();
  const systemRoles: ('system' | 'developer')[] = [];
  let previousType: unknown;
  input.forEach((item, index) => {
    const path = `input[${index}]`;
    if (!isJsonObject(item)) throw fieldError({ field: path, value: item, expected: 'an object' });
    const type = item.type ?? (item.role !== undefined ? 'message' : undefined);
    const afterFunctionCall = previousType === 'function_call';
    previousType = type;
    switch (type) {
      case 'message': {
        const role = item.role;
        if (role === 'system' || role === 'developer') systemRoles.push(role);
        const parts = decodeMessageContent(item, path, losses);
        if (role === 'assistant') messages.join('assistant', parts);
        else if (role === 'user') messages.start('user', parts);
        else if (role === 'system' || role === 'developer') messages.start('system', parts);
        else
          throw fieldError({
            field: `${path}.role`,
            value: role,
            expected: 'user, assistant, system or developer',
          });
        break;
      }
      case 'function_call': {
        const callId = requireString(item.call_id, `${path}.call_id`);
        messages.join('assistant', [
          {
            type: 'tool-call',
            id: callId,
            name: requireString(item.name, `${path}.name`),
            arguments: requireString(item.arguments, `${path}.arguments`),
          },
        ]);
        const rest = withoutKeys(item, ['type', 'call_id', 'name', 'arguments']);
        if (rest) setOwnMember((detail.functionCalls ??= {}), callId, rest);
        break;
      }
      case 'function_call_output': {
        const callId = requireString(item.call_id, `${path}.call_id`);
        const content = decodeOutput(item.output, `${path}.output`, losses);
        messages.join('tool', [{ type: 'tool-result', toolCallId: callId, content }]);
        const rest = withoutKeys(item, ['type', 'call_id', 'output']);
        if (rest) setOwnMember((detail.functionCallOutputs ??= {}), callId, rest);
        break;
      }
      case 'reasoning': {
        const part = decodeReasoningItem(item);
        const call = afterFunctionCall ? messages.lastPart() : undefined;
        if (call?.type === 'tool-call' && isToolCallSignature(part)) call.signature = part.signature;
        else messages.join('assistant', [part]);
        break;
      }
      default:
        messages.join(roleOfUnknownItem(asString(type)), [rawItem(item)]);
    }
  });
  if (systemRoles.includes('developer')) detail.systemRoles = systemRoles;
  return messages.list;
}

function decodeMessageContent(item: JsonObject, path: string, losses: LossLog): Part[] {
  // Members of the item besides role and content (id, status, phase) ride on its text parts.
  const itemMembers = withoutKeys(item, ['type', 'role', 'content']);
  const { content } = item;
  let parts: Part[];
  if (typeof content === 'string') {
    parts = [
      decodeContentPart({ part: { type: 'input_text', text: content }, path, losses, item: itemMembers }),
    ];
  } else if (Array.isArray(content)) {
    parts = content.map((part, index) =>
      decodeContentPart({ part, path: `${path}.content[${index}]`, losses, item: itemMembers }),
    );
  } else {
    throw fieldError({ field: `${path}.content`, value: content, expected: 'a string or an array' });
  }
  if (itemMembers && !parts.some((part) => part.type === 'text')) {
    losses.dropped(
      path,
      `members ${Object.keys(itemMembers).join(', ')} of a message without text have no canonical place`,
    );
  }
  return parts;
}

/** A function call output: a string, or a list of text, image and file parts. */
function decodeOutput(output: unknown, path: string, losses: LossLog): (TextPart | FilePart)[] {
  if (typeof output === 'string') return [{ type: 'text', text: output }];
  if (!Array.isArray(output))
    throw fieldError({ field: path, value: output, expected: 'a string or an array' });
  const content: (TextPart | FilePart)[] = [];
  output.forEach((entry, index) => {
    const part = decodeContentPart({ part: entry, path: `${path}[${index}]`, losses });
    if (part.type === 'text' || part.type === 'file') content.push(part);
    else losses.dropped(`${path}[${index}]`, 'a tool result holds only text, images and files');
  });
  return content;
}

/** Calls made by the model sit with the assistant, their outputs with tool results, the rest with the user. */
function roleOfUnknownItem(type: string | undefined): Role {
  if (type === undefined) return 'user';
  if (type.endsWith('_output')) return 'tool';
  if (type.endsWith('_call') || type.startsWith('mcp_') || type === 'compaction' || type === 'program') {
    return type === 'mcp_approval_response' ? 'user' : 'assistant';
  }
  return 'user';
}

/** Builds the message list: `start` always opens a message, `join` extends the last one of the same role. */
class MessageSequence {
  readonly list: Message[] = [];

  start(role: Role, parts: Part[]): void {
    this.list.push({ role, parts: [...parts] });
  }

  lastPart(): Part | undefined {
    return this.list.at(-1)?.parts.at(-1);
  }

  join(role: Role, parts: Part[]): void {
    const last = this.list.at(-1);
    if (last && last.role === role) last.parts.push(...parts);
    else this.start(role, parts);
  }
}
