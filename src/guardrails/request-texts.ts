import type { ClientProtocolName } from '../protocols/protocol-codec.js';
import { asArray, isJsonObject, type JsonObject } from '../protocols/wire-json.js';

/**
 * The text a guardrail reads in a request (admin-api section 12): the system prompt's and every
 * message's text parts, in the client's own format. Other parts (images, files, tool calls) and
 * members of the wrong type are passed over.
 */
export function requestTexts(protocol: ClientProtocolName, body: JsonObject): string[] {
  const texts: string[] = [];
  switch (protocol) {
    case 'openai-chat':
      for (const message of asArray(body.messages))
        if (isJsonObject(message)) addContent(texts, message.content);
      break;
    case 'openai-responses':
      addText(texts, body.instructions);
      if (typeof body.input === 'string') texts.push(body.input);
      for (const item of asArray(body.input)) if (isJsonObject(item)) addContent(texts, item.content);
      break;
    case 'anthropic-messages':
      addContent(texts, body.system);
      for (const message of asArray(body.messages))
        if (isJsonObject(message)) addContent(texts, message.content);
      break;
    case 'gemini':
      addParts(texts, body.systemInstruction ?? body.system_instruction);
      for (const content of asArray(body.contents)) addParts(texts, content);
      break;
    default: {
      const unknown: never = protocol;
      return unknown;
    }
  }
  return texts;
}

function addText(texts: string[], value: unknown): void {
  if (typeof value === 'string' && value !== '') texts.push(value);
}

/** A content that is a string, or parts of which the text ones (`text`, `input_text`, `output_text`) count; tool results' too. */
function addContent(texts: string[], content: unknown): void {
  if (typeof content === 'string') return addText(texts, content);
  for (const part of asArray(content)) {
    if (!isJsonObject(part)) continue;
    if (part.type === 'text' || part.type === 'input_text' || part.type === 'output_text')
      addText(texts, part.text);
    else if (part.type === 'tool_result') addContent(texts, part.content);
  }
}

function addParts(texts: string[], content: unknown): void {
  if (!isJsonObject(content)) return;
  for (const part of asArray(content.parts)) if (isJsonObject(part)) addText(texts, part.text);
}
