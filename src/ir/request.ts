import type { Message, Part } from './content.js';

export interface FunctionTool {
  type: 'function';
  name: string;
  description?: string;
  /** JSON Schema of the arguments. */
  parameters: Record<string, unknown>;
  strict?: boolean;
  cacheControl?: { type: 'ephemeral'; ttl?: '5m' | '1h' };
}

/** A tool the provider runs itself (web search, code execution...). */
export interface ProviderTool {
  type: 'provider';
  /** Canonical kind where one exists across protocols. */
  kind: 'web-search' | 'other';
  /** The tool as its own protocol writes it, for a same-protocol round trip. */
  protocol: string;
  value: Record<string, unknown>;
}

export type Tool = FunctionTool | ProviderTool;

export type ToolChoice =
  { type: 'auto' } | { type: 'none' } | { type: 'required' } | { type: 'tool'; name: string };

export type ResponseFormat =
  | { type: 'text' }
  | { type: 'json-object' }
  | {
      type: 'json-schema';
      name: string;
      schema: Record<string, unknown>;
      strict?: boolean;
      description?: string;
    };

export type ReasoningEffort = 'none' | 'minimal' | 'low' | 'medium' | 'high' | 'xhigh';

export interface ReasoningOptions {
  /** Whether the model should reason at all; undefined: the model's default. */
  enabled?: boolean;
  effort?: ReasoningEffort;
  /** Token budget for reasoning (Anthropic `budget_tokens`, Gemini `thinkingBudget`). */
  budgetTokens?: number;
  /** Ask for reasoning text back (Gemini `includeThoughts`, OpenAI `summary`). */
  includeThoughts?: boolean;
  summary?: 'auto' | 'concise' | 'detailed';
}

/** One generation request in the canonical form (DESIGN section 4). */
export interface CanonicalRequest {
  model: string;
  /** System instructions; protocols with one system string get these parts joined. */
  system: Part[];
  messages: Message[];
  tools: Tool[];
  toolChoice?: ToolChoice;
  parallelToolCalls?: boolean;
  maxOutputTokens?: number;
  temperature?: number;
  topP?: number;
  topK?: number;
  stop?: string[];
  seed?: number;
  frequencyPenalty?: number;
  presencePenalty?: number;
  responseFormat?: ResponseFormat;
  reasoning?: ReasoningOptions;
  stream: boolean;
  /** End user id (OpenAI `user`, Anthropic `metadata.user_id`). */
  user?: string;
  /** Fields only the source protocol understands, by protocol name, kept for a same-protocol encode. */
  extensions: Record<string, Record<string, unknown>>;
}
