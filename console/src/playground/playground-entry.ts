import type { StreamUsage } from './stream-chat-completion';

/** What the usage record says an answer cost, once the console has looked it up. */
export type AnswerCost =
  | { kind: 'looking' }
  | { kind: 'found'; cost: number; promptTokens: number; completionTokens: number }
  /** No record appeared in time, or the request never reached the gateway's billing. */
  | { kind: 'unknown' };

export interface UserEntry {
  id: number;
  role: 'user';
  content: string;
}

export interface AssistantEntry {
  id: number;
  role: 'assistant';
  model: string;
  content: string;
  reasoning: string;
  /** `stopped`: the user ended it; what arrived until then is kept and charged. */
  state: 'streaming' | 'done' | 'stopped' | 'failed';
  error: string | undefined;
  usage: StreamUsage | undefined;
  cost: AnswerCost;
}

export type PlaygroundEntry = UserEntry | AssistantEntry;
