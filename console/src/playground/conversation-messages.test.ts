import { describe, expect, it } from 'vitest';
import { conversationMessages } from './conversation-messages';
import type { AssistantEntry, PlaygroundEntry } from './playground-entry';

const answer = (id: number, overrides: Partial<AssistantEntry>): AssistantEntry => ({
  id,
  role: 'assistant',
  model: 'gpt-4o-mini',
  content: '',
  reasoning: '',
  state: 'done',
  error: undefined,
  usage: undefined,
  cost: { kind: 'unknown' },
  ...overrides,
});

describe('conversationMessages', () => {
  it('sends the system prompt, then the questions and answers, leaving out a failed exchange', () => {
    const entries: PlaygroundEntry[] = [
      { id: 1, role: 'user', content: 'Hi' },
      answer(2, { content: 'Hello!' }),
      { id: 3, role: 'user', content: 'Too long' },
      answer(4, { state: 'failed', error: 'context too long' }),
      { id: 5, role: 'user', content: 'Stop early' },
      answer(6, { state: 'stopped', content: 'Par' }),
      { id: 7, role: 'user', content: 'Next' },
    ];
    expect(conversationMessages({ system: 'Be brief.', entries })).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'Hi' },
      { role: 'assistant', content: 'Hello!' },
      { role: 'user', content: 'Stop early' },
      { role: 'assistant', content: 'Par' },
      { role: 'user', content: 'Next' },
    ]);
    expect(conversationMessages({ system: '  ', entries: entries.slice(0, 1) })).toEqual([
      { role: 'user', content: 'Hi' },
    ]);
  });
});
