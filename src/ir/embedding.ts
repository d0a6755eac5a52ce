import type { Usage } from './usage.js';

/**
 * One text to embed. `taskType` and `title` are Gemini's per-input hints
 * (https://ai.google.dev/api/embeddings#EmbedContentRequest): what the vector is for, and the
 * title of a retrieval document. Protocols without them drop them and record the loss.
 */
export interface EmbeddingTextInput {
  type: 'text';
  text: string;
  taskType?: string;
  title?: string;
}

/** Input already tokenised by the client: OpenAI takes token ids in place of text. */
export interface EmbeddingTokensInput {
  type: 'tokens';
  tokens: number[];
}

export type EmbeddingInput = EmbeddingTextInput | EmbeddingTokensInput;

/** An embedding request in the canonical form: one vector is asked for each input, in order. */
export interface EmbeddingRequest {
  /** The upstream model, set by the planner before encoding. */
  model: string;
  inputs: EmbeddingInput[];
  /** Length of each vector; undefined: the model's own. */
  dimensions: number | undefined;
  /** The end user the client names for abuse monitoring (OpenAI `user`). */
  user: string | undefined;
}

/** An embedding reply in the canonical form: the vectors in the order of the request's inputs. */
export interface EmbeddingReply {
  vectors: number[][];
  /** Input tokens the upstream reported (output is always 0); undefined when it reported none. */
  usage: Usage | undefined;
}

/** Usage of an embedding call: input tokens only. */
export function embeddingUsage(options: { inputTokens: number | undefined; raw?: unknown }): Usage {
  return {
    inputTokens: options.inputTokens,
    cacheReadTokens: 0,
    cacheWriteTokens: 0,
    outputTokens: 0,
    reasoningTokens: 0,
    webSearchCalls: 0,
    estimated: false,
    ...(options.raw !== undefined && { raw: options.raw }),
  };
}
