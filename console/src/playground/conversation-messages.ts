import type { PlaygroundEntry } from './playground-entry';
import type { ChatMessage } from './stream-chat-completion';

/**
 * The messages of the next request: the system prompt when there is one, then every question and
 * every answer that has text; a failed answer and the question it failed on are left out.
 */
export function conversationMessages(options: {
  system: string;
  entries: readonly PlaygroundEntry[];
}): ChatMessage[] {
  const messages: ChatMessage[] = [];
  if (options.system.trim() !== '') messages.push({ role: 'system', content: options.system });
  options.entries.forEach((entry, index) => {
    if (entry.role === 'assistant') {
      if (entry.state !== 'failed' && entry.content !== '')
        messages.push({ role: 'assistant', content: entry.content });
      return;
    }
    const answer = options.entries[index + 1];
    if (answer?.role === 'assistant' && answer.state === 'failed') return;
    messages.push({ role: 'user', content: entry.content });
  });
  return messages;
}
