import type { Part, ReasoningPart, ToolCallPart } from '../../ir/content.js';
import type { LossLog } from '../../ir/loss.js';
import { GEMINI, withGeminiThoughtOrigin } from './gemini-extensions.js';
import type { GeminiPartView, GeminiSignature } from './read-gemini-part.js';
import type { ToolCallIds } from './tool-call-ids.js';

type ContentView = Extract<GeminiPartView, { kind: 'text' | 'file' | 'function-call' | 'raw' }>;

/**
 * Builds the canonical parts of one turn from its wire parts, in order. Consecutive `thought`
 * parts form one reasoning part, closed by the first that carries a `thoughtSignature` (a
 * streamed turn arrives as many small thought parts, and the signature must stay with the whole
 * text). A signature on a text or file part becomes a reasoning part of its own, with no text,
 * just before it; encoding puts it back on that part. A function call keeps its own signature.
 * A token the gateway gave a Gemini client from another vendor (`anthropic:...`) comes back with
 * its issuer; redacted data (`anthropic-redacted:...`) becomes the reasoning's `redactedData`.
 * A `thought` image (the interim drafts of a thinking image model such as Gemini 3 Pro Image,
 * https://ai.google.dev/gemini-api/docs/image-generation#thinking-process) is not the answer: it
 * is dropped with the loss recorded, as no canonical reasoning part can hold an image; a
 * signature on it closes the thoughts like one on a thought text part.
 */
export class GeminiPartAssembler {
  readonly parts: Part[] = [];
  private thought: string | undefined;

  constructor(
    private readonly ids: ToolCallIds,
    private readonly losses: LossLog,
  ) {}

  /** Adds the part read at `path` of the wire body. */
  add(view: ContentView, path: string): void {
    switch (view.kind) {
      case 'text':
        if (view.thought) {
          this.thought = (this.thought ?? '') + view.text;
          if (view.signature !== undefined) this.closeThought(view.signature);
          return;
        }
        this.closeThought(undefined);
        this.pushSignature(view.signature);
        // An empty text part (a stream's last chunk often has one) says nothing.
        if (view.text !== '') this.parts.push({ type: 'text', text: view.text });
        return;
      case 'file':
        if (view.thought) {
          this.losses.dropped(path, 'a thought image is an interim draft, not the answer');
          if (view.signature !== undefined) {
            this.thought ??= '';
            this.closeThought(view.signature);
          }
          return;
        }
        this.closeThought(undefined);
        this.pushSignature(view.signature);
        this.parts.push(view.file);
        return;
      case 'function-call':
        this.closeThought(undefined);
        this.parts.push(this.toolCall(view));
        return;
      case 'raw':
        this.closeThought(undefined);
        this.parts.push({ type: 'raw', protocol: GEMINI, value: view.value });
        return;
      default: {
        const unhandled: never = view;
        return unhandled;
      }
    }
  }

  /** The parts, with a thought still open closed. */
  end(): Part[] {
    this.closeThought(undefined);
    return this.parts;
  }

  private toolCall(view: Extract<ContentView, { kind: 'function-call' }>): ToolCallPart {
    return {
      type: 'tool-call',
      id: view.id ?? this.ids.create(),
      name: view.name,
      arguments: JSON.stringify(view.args),
      ...(view.signature !== undefined && { signature: view.signature.token }),
    };
  }

  private closeThought(signature: GeminiSignature | undefined): void {
    if (this.thought === undefined) return;
    this.parts.push(reasoning(this.thought, signature, true));
    this.thought = undefined;
  }

  private pushSignature(signature: GeminiSignature | undefined): void {
    if (signature !== undefined) this.parts.push(reasoning('', signature, false));
  }
}

function reasoning(text: string, signature: GeminiSignature | undefined, thought: boolean): ReasoningPart {
  const token =
    signature === undefined
      ? {}
      : signature.role === 'redacted'
        ? { redactedData: signature.token }
        : { signature: signature.token };
  return { type: 'reasoning', text, ...token, extensions: withGeminiThoughtOrigin(thought) };
}
