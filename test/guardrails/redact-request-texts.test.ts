import { describe, expect, test } from 'vitest';
import { redactRequestTexts } from '../../src/guardrails/redact-request-texts.js';

const MAIL = 'write to jane.doe@example.com';
const REDACTED = 'write to [REDACTED:email]';

describe('redactRequestTexts', () => {
  test('responses: instructions, a string input, and the text parts of input items', () => {
    expect(redactRequestTexts('openai-responses', { instructions: MAIL, input: MAIL }).body).toEqual({
      instructions: REDACTED,
      input: REDACTED,
    });
    const items = {
      input: [
        {
          role: 'user',
          content: [
            { type: 'input_text', text: MAIL },
            { type: 'input_image', image_url: MAIL },
          ],
        },
      ],
    };
    const { body, paths } = redactRequestTexts('openai-responses', items);
    expect(body).toEqual({
      input: [
        {
          role: 'user',
          content: [
            { type: 'input_text', text: REDACTED },
            { type: 'input_image', image_url: MAIL },
          ],
        },
      ],
    });
    expect(paths).toEqual(['input[0].content[0].text']);
  });

  test('gemini: the system instruction in either spelling and the parts of contents', () => {
    const { body } = redactRequestTexts('gemini', {
      system_instruction: { parts: [{ text: MAIL }] },
      contents: [
        { role: 'user', parts: [{ text: MAIL }, { inlineData: { mimeType: 'image/png', data: 'AAAA' } }] },
      ],
    });
    expect(body).toEqual({
      system_instruction: { parts: [{ text: REDACTED }] },
      contents: [
        {
          role: 'user',
          parts: [{ text: REDACTED }, { inlineData: { mimeType: 'image/png', data: 'AAAA' } }],
        },
      ],
    });
  });

  test('messages: tool results are texts too; tool inputs are not', () => {
    const { body } = redactRequestTexts('anthropic-messages', {
      messages: [
        {
          role: 'user',
          content: [{ type: 'tool_result', tool_use_id: 't', content: [{ type: 'text', text: MAIL }] }],
        },
        { role: 'assistant', content: [{ type: 'tool_use', id: 't', name: 'send', input: { to: MAIL } }] },
      ],
    });
    expect(JSON.stringify(body)).toContain(REDACTED);
    expect((body.messages as any)[1].content[0].input.to).toBe(MAIL);
  });

  test('a body without personal data is returned as it is, the same object', () => {
    const body = { messages: [{ role: 'user', content: 'hello there' }], tools: [] };
    const redacted = redactRequestTexts('openai-chat', body);
    expect(redacted.body).toBe(body);
    expect(redacted.paths).toEqual([]);
  });

  test('members of the wrong type are left alone', () => {
    const body = { messages: 'not a list', system: 42 };
    expect(redactRequestTexts('anthropic-messages', body).body).toBe(body);
  });
});
