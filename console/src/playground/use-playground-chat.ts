import { useCallback, useRef, useState } from 'react';
import { ApiError, errorMessage } from '../api/api-error';
import type { UsageLog } from '../api/types';
import { conversationMessages } from './conversation-messages';
import type { AnswerCost, AssistantEntry, PlaygroundEntry } from './playground-entry';
import type { PlaygroundKey } from './playground-key';
import { streamChatCompletion, type StreamedAnswer } from './stream-chat-completion';

export interface PlaygroundChatOptions {
  /** The key to send with: the tab's, or a new one. */
  obtainKey: () => Promise<PlaygroundKey>;
  /** Drops a key the gateway refused (deleted or expired meanwhile), so the next is a new one. */
  forgetKey: () => void;
  /** The usage record of a request, found by its id; undefined when none appeared in time. */
  findRecord: (options: { keyId: number; requestId: string }) => Promise<UsageLog | undefined>;
  /** Called once an answer was charged: the balance shown is then out of date. */
  onCharged: () => void;
}

export interface PlaygroundQuestion {
  model: string;
  system: string;
  text: string;
}

/**
 * The playground's conversation: a question goes to the gateway's relay as a streamed chat
 * completion, the answer grows as its text arrives, then its usage record is looked up for the
 * tokens and the cost charged (a stopped answer is charged for what was generated, so it is
 * looked up too).
 */
export function usePlaygroundChat(options: PlaygroundChatOptions) {
  const [entries, setEntries] = useState<readonly PlaygroundEntry[]>([]);
  // Every change goes through `commit`, so the ref is always the current conversation.
  const entriesRef = useRef<readonly PlaygroundEntry[]>([]);
  const [streaming, setStreaming] = useState(false);
  const nextId = useRef(1);
  const running = useRef<AbortController | undefined>(undefined);
  const optionsRef = useRef(options);
  optionsRef.current = options;

  const commit = useCallback(
    (change: (current: readonly PlaygroundEntry[]) => readonly PlaygroundEntry[]) => {
      entriesRef.current = change(entriesRef.current);
      setEntries(entriesRef.current);
    },
    [],
  );
  const updateAnswer = useCallback(
    (id: number, change: (entry: AssistantEntry) => AssistantEntry) =>
      commit((current) =>
        current.map((entry) => (entry.id === id && entry.role === 'assistant' ? change(entry) : entry)),
      ),
    [commit],
  );

  const send = useCallback(
    async (question: PlaygroundQuestion) => {
      if (running.current) return;
      const controller = new AbortController();
      running.current = controller;
      setStreaming(true);
      const answerId = nextId.current + 1;
      commit((current) => [...current, { id: nextId.current, role: 'user', content: question.text }]);
      const messages = conversationMessages({ system: question.system, entries: entriesRef.current });
      commit((current) => [...current, newAnswer(answerId, question.model)]);
      nextId.current += 2;

      let key: PlaygroundKey | undefined;
      let requestId: string | null = null;
      let received = false;
      const attempt = (withKey: PlaygroundKey): Promise<StreamedAnswer> =>
        streamChatCompletion({
          key: withKey.key,
          model: question.model,
          messages,
          signal: controller.signal,
          onStart: (id) => (requestId = id),
          onText: (text) => {
            received = true;
            updateAnswer(answerId, (entry) => ({ ...entry, content: entry.content + text }));
          },
          onReasoning: (text) => {
            received = true;
            updateAnswer(answerId, (entry) => ({ ...entry, reasoning: entry.reasoning + text }));
          },
        });
      try {
        key = await optionsRef.current.obtainKey();
        let answer: StreamedAnswer;
        try {
          answer = await attempt(key);
        } catch (error) {
          // A key deleted or expired since the tab stored it: once more with a new one.
          if (!(error instanceof ApiError && error.status === 401) || received) throw error;
          optionsRef.current.forgetKey();
          key = await optionsRef.current.obtainKey();
          answer = await attempt(key);
        }
        updateAnswer(answerId, (entry) => ({ ...entry, state: 'done', usage: answer.usage }));
      } catch (error) {
        const stopped = controller.signal.aborted;
        updateAnswer(answerId, (entry) => ({
          ...entry,
          state: stopped ? 'stopped' : 'failed',
          error: stopped ? undefined : errorMessage(error),
        }));
      } finally {
        running.current = undefined;
        setStreaming(false);
      }
      const cost = await lookUpCost({ key, requestId, findRecord: optionsRef.current.findRecord });
      updateAnswer(answerId, (entry) => ({ ...entry, cost }));
      if (cost.kind === 'found') optionsRef.current.onCharged();
    },
    [commit, updateAnswer],
  );

  const stop = useCallback(() => running.current?.abort(), []);
  const clear = useCallback(() => {
    if (!running.current) commit(() => []);
  }, [commit]);

  return { entries, streaming, send, stop, clear };
}

function newAnswer(id: number, model: string): AssistantEntry {
  return {
    id,
    role: 'assistant',
    model,
    content: '',
    reasoning: '',
    state: 'streaming',
    error: undefined,
    usage: undefined,
    cost: { kind: 'looking' },
  };
}

/** The cost of a request that reached the gateway, from its usage record; unknown without one. */
async function lookUpCost(options: {
  key: PlaygroundKey | undefined;
  requestId: string | null;
  findRecord: PlaygroundChatOptions['findRecord'];
}): Promise<AnswerCost> {
  if (!options.key || options.requestId === null) return { kind: 'unknown' };
  const record = await options
    .findRecord({ keyId: options.key.id, requestId: options.requestId })
    .catch(() => undefined);
  if (!record) return { kind: 'unknown' };
  return {
    kind: 'found',
    cost: record.cost,
    promptTokens: record.prompt_tokens,
    completionTokens: record.completion_tokens,
  };
}
