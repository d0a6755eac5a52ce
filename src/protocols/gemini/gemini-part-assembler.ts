import type { Part, ReasoningPart, ToolCallPart } from '../../ir/content.js';
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
 */
export class GeminiPartAssembler {
  readonly parts: Part[] = [];
  private thought: string | undefined;

  constructor(private readonly ids: ToolCallIds) {}

  add(view: ContentView): void {
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
