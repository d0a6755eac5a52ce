/**
 * Gemini function calls usually come without an id (https://ai.google.dev/api/caching#FunctionCall),
 * while every other protocol pairs calls and results by one. Missing ids are made up in order,
 * `call_<n>` within a request, `call_<responseId>_<n>` within a reply so that calls of different
 * turns never share one; ids already on the wire are never reused.
 */
export class ToolCallIds {
  private next = 0;
  private readonly prefix: string;
  private readonly taken: Set<string>;

  constructor(options: { taken?: Iterable<string>; responseId?: string | undefined } = {}) {
    this.taken = new Set(options.taken ?? []);
    const tag = options.responseId?.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 24);
    this.prefix = tag ? `call_${tag}_` : 'call_';
  }

  create(): string {
    for (;;) {
      const id = `${this.prefix}${this.next++}`;
      if (!this.taken.has(id)) {
        this.taken.add(id);
        return id;
      }
    }
  }
}
