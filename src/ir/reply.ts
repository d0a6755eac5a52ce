import type { Part } from './content.js';
import type { Usage } from './usage.js';

/** Why generation stopped, normalized, with the provider's own value beside it (STYLE rule 5). */
export type FinishReason = {
  unified: 'stop' | 'length' | 'tool-calls' | 'content-filter' | 'error' | 'other';
  raw: string | undefined;
};

/** One complete generation reply in the canonical form. */
export interface CanonicalReply {
  id: string;
  model: string;
  /** Unix seconds. */
  created: number;
  parts: Part[];
  finishReason: FinishReason;
  usage: Usage;
  extensions: Record<string, Record<string, unknown>>;
}

/**
 * The finish of a reply that holds tool calls: `tool-calls`, whatever the upstream said (OpenAI
 * says `stop` for a forced function call), with the upstream's raw value kept. A reply cut by its
 * length, a filter or an error keeps that finish: its calls may be incomplete.
 */
export function finishWithToolCalls(finish: FinishReason): FinishReason {
  return finish.unified === 'stop' || finish.unified === 'other'
    ? { unified: 'tool-calls', raw: finish.raw }
    : finish;
}
