import type { Message, ToolCallPart } from '../../ir/content.js';
import type { LossLog } from '../../ir/loss.js';
import { decodeGeminiToolResult } from './decode-tool-result.js';
import { GeminiPartAssembler } from './gemini-part-assembler.js';
import { InvalidRequestError } from '../invalid-request-error.js';
import { readGeminiPart, type GeminiPartView } from './read-gemini-part.js';
import type { ToolCallIds } from './tool-call-ids.js';
import { asString, isJsonObject } from '../wire-json.js';

interface PendingCall {
  id: string;
  name: string;
  answered: boolean;
}

/**
 * `contents` (https://ai.google.dev/api/generate-content#request-body) as canonical messages.
 * Consecutive `model` contents make one assistant message (a client replaying a stream keeps one
 * content per chunk). `functionResponse` parts become `tool` messages, consecutive ones joined,
 * the rest of a user turn stays a user message. A response without an id answers the first
 * unanswered call of the same name in the preceding model turn, else the first unanswered one.
 */
export function decodeGeminiContents(
  contents: unknown[],
  context: { losses: LossLog; ids: ToolCallIds },
): Message[] {
  const messages: Message[] = [];
  let model: { message: Message; assembler: GeminiPartAssembler } | undefined;
  let pending: PendingCall[] = [];

  const closeModel = () => {
    if (!model) return;
    model.message.parts = model.assembler.end();
    pending = model.message.parts
      .filter((part): part is ToolCallPart => part.type === 'tool-call')
      .map((call) => ({ id: call.id, name: call.name, answered: false }));
    model = undefined;
  };

  for (const [index, content] of contents.entries()) {
    const path = `contents[${index}]`;
    const { role, views } = readContent(content, path, context.losses);
    if (role === 'model') {
      if (!model) {
        model = {
          message: { role: 'assistant', parts: [] },
          assembler: new GeminiPartAssembler(context.ids, context.losses),
        };
        messages.push(model.message);
      }
      for (const [partIndex, view] of views.entries()) {
        if (view.kind === 'function-response')
          throw new InvalidRequestError(
            `${path}.parts[${partIndex}]`,
            'functionResponse belongs in a user turn',
          );
        model.assembler.add(view, `${path}.parts[${partIndex}]`);
      }
      continue;
    }

    closeModel();
    let user: { message: Message; assembler: GeminiPartAssembler } | undefined;
    const closeUser = () => {
      if (user) user.message.parts = user.assembler.end();
      user = undefined;
    };
    for (const [partIndex, view] of views.entries()) {
      if (view.kind !== 'function-response') {
        if (!user) {
          user = {
            message: { role: 'user', parts: [] },
            assembler: new GeminiPartAssembler(context.ids, context.losses),
          };
          messages.push(user.message);
        }
        user.assembler.add(view, `${path}.parts[${partIndex}]`);
        continue;
      }
      closeUser();
      const result = decodeGeminiToolResult({
        toolCallId: answer(pending, view, context.ids),
        name: view.name,
        response: view.response,
        files: view.files,
      });
      const last = messages.at(-1);
      if (last?.role === 'tool') last.parts.push(result);
      else messages.push({ role: 'tool', parts: [result] });
    }
    closeUser();
  }
  closeModel();
  // A turn of nothing but empty text says nothing either.
  return messages.filter((message) => message.parts.length > 0);
}

type RoleAndViews = { role: 'user' | 'model'; views: Exclude<GeminiPartView, { kind: 'invalid' }>[] };

function readContent(content: unknown, path: string, losses: LossLog): RoleAndViews {
  if (!isJsonObject(content)) throw new InvalidRequestError(path, 'must be an object');
  const role = content.role ?? 'user';
  // `function` is the role older clients give to turns of function responses.
  if (role !== 'user' && role !== 'model' && role !== 'function')
    throw new InvalidRequestError(`${path}.role`, 'must be user or model');
  if (!Array.isArray(content.parts) || content.parts.length === 0)
    throw new InvalidRequestError(`${path}.parts`, 'must be a non-empty array');
  const views = content.parts.map((part, index) => {
    const view = readGeminiPart(part, `${path}.parts[${index}]`, losses);
    if (view.kind === 'invalid') throw new InvalidRequestError(`${path}.parts[${index}]`, view.problem);
    return view;
  });
  return { role: role === 'model' ? 'model' : 'user', views };
}

function answer(
  pending: PendingCall[],
  response: Extract<GeminiPartView, { kind: 'function-response' }>,
  ids: ToolCallIds,
): string {
  const call =
    response.id !== undefined
      ? pending.find((candidate) => candidate.id === response.id)
      : (pending.find((candidate) => !candidate.answered && candidate.name === response.name) ??
        pending.find((candidate) => !candidate.answered));
  if (call) call.answered = true;
  return response.id ?? call?.id ?? ids.create();
}

/** Function call and response ids a client sent; made-up ids must not collide with them. */
export function collectGeminiCallIds(contents: unknown[]): string[] {
  const ids: string[] = [];
  for (const content of contents) {
    if (!isJsonObject(content) || !Array.isArray(content.parts)) continue;
    for (const part of content.parts) {
      if (!isJsonObject(part)) continue;
      const call = isJsonObject(part.functionCall) ? asString(part.functionCall.id) : undefined;
      const response = isJsonObject(part.functionResponse) ? asString(part.functionResponse.id) : undefined;
      if (call !== undefined) ids.push(call);
      if (response !== undefined) ids.push(response);
    }
  }
  return ids;
}
