import type { ClientProtocolName } from '../protocols/protocol-codec.js';
import { isJsonObject, type JsonObject } from '../protocols/wire-json.js';
import { redactPii } from './redact-pii.js';

/** A request body with personal data cut from its texts, and where it was cut. */
export interface RedactedRequest {
  /** The body itself when nothing was found; otherwise a copy, only the changed paths copied. */
  body: JsonObject;
  /** Paths of the texts rewritten, e.g. `messages[1].content`. */
  paths: string[];
}

/**
 * `redact_pii: upstream` (admin-api section 12): the same texts a guardrail reads (the system
 * prompt's and every message's text parts) with e-mail addresses, phone numbers, card numbers,
 * IBANs and secrets replaced by `[REDACTED:<kind>]`, before the request is converted or sent. Other
 * members (tool definitions, images, model names) are left as they are.
 */
export function redactRequestTexts(protocol: ClientProtocolName, body: JsonObject): RedactedRequest {
  const paths: string[] = [];
  const rewrite = new Rewrite(paths);
  let result = body;
  const set = (key: string, value: unknown, original: unknown) => {
    if (value !== original) result = { ...result, [key]: value };
  };
  /** Items with a `content` (chat and messages' `messages`, responses' `input`). */
  const contents = (key: string) =>
    set(
      key,
      rewrite.list(body[key], key, (item, path) => rewrite.member(item, 'content', path, rewrite.content)),
      body[key],
    );
  switch (protocol) {
    case 'openai-chat':
      contents('messages');
      break;
    case 'openai-responses':
      set('instructions', rewrite.text(body.instructions, 'instructions'), body.instructions);
      if (typeof body.input === 'string') set('input', rewrite.text(body.input, 'input'), body.input);
      else contents('input');
      break;
    case 'anthropic-messages':
      set('system', rewrite.content(body.system, 'system'), body.system);
      contents('messages');
      break;
    case 'gemini':
      for (const key of ['systemInstruction', 'system_instruction'])
        set(key, rewrite.member(body[key], 'parts', key, rewrite.parts), body[key]);
      set(
        'contents',
        rewrite.list(body.contents, 'contents', (content, path) =>
          rewrite.member(content, 'parts', path, rewrite.parts),
        ),
        body.contents,
      );
      break;
    default: {
      const unknown: never = protocol;
      return unknown;
    }
  }
  return { body: result, paths };
}

/** Copy-on-write rewriting of the text places of a body; each method returns its input unchanged when nothing was found. */
class Rewrite {
  constructor(private readonly paths: string[]) {}

  text = (value: unknown, path: string): unknown => {
    if (typeof value !== 'string') return value;
    const redacted = redactPii(value);
    if (redacted.text === value) return value;
    this.paths.push(path);
    return redacted.text;
  };

  /** A message content: a string, or parts of which the text ones count (tool results' too). */
  content = (value: unknown, path: string): unknown => {
    if (typeof value === 'string') return this.text(value, path);
    return this.list(value, path, (part, partPath) => {
      if (!isJsonObject(part)) return part;
      if (part.type === 'text' || part.type === 'input_text' || part.type === 'output_text')
        return this.member(part, 'text', partPath, this.text);
      if (part.type === 'tool_result') return this.member(part, 'content', partPath, this.content);
      return part;
    });
  };

  parts = (value: unknown, path: string): unknown =>
    this.list(value, path, (part, partPath) => this.member(part, 'text', partPath, this.text));

  list(value: unknown, path: string, each: (item: unknown, path: string) => unknown): unknown {
    if (!Array.isArray(value)) return value;
    let copy: unknown[] | undefined;
    value.forEach((item, index) => {
      const rewritten = each(item, `${path}[${index}]`);
      if (rewritten !== item) (copy ??= [...value])[index] = rewritten;
    });
    return copy ?? value;
  }

  member(
    value: unknown,
    key: string,
    path: string,
    rewrite: (member: unknown, path: string) => unknown,
  ): unknown {
    if (!isJsonObject(value)) return value;
    const rewritten = rewrite(value[key], `${path}.${key}`);
    return rewritten === value[key] ? value : { ...value, [key]: rewritten };
  }
}
