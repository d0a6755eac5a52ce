import { describe, expect, it } from 'vitest';
import { keyPrefix, quickStartSnippets } from './quick-start-snippets';

describe('quickStartSnippets', () => {
  const snippets = quickStartSnippets({
    origin: 'https://gw.example.com/',
    apiKey: 'sk-abcd',
    model: 'gpt-4o',
  });

  it('points each SDK at the gateway the way it expects', () => {
    expect(snippets.openai).toContain("baseURL: 'https://gw.example.com/v1'");
    expect(snippets.anthropic).toContain("baseURL: 'https://gw.example.com'");
    expect(snippets.google).toContain("httpOptions: { baseUrl: 'https://gw.example.com' }");
    expect(snippets.curl).toContain('curl https://gw.example.com/v1/chat/completions');
  });

  it('fills in the key and the model', () => {
    for (const snippet of Object.values(snippets)) {
      expect(snippet).toContain('sk-abcd');
      expect(snippet).toContain('gpt-4o');
    }
    expect(snippets.curl).toContain(
      `-d '{"model":"gpt-4o","messages":[{"role":"user","content":"Hello!"}]}'`,
    );
  });

  it('quotes what it fills in', () => {
    const quoted = quickStartSnippets({ origin: 'http://127.0.0.1:3000', apiKey: 'sk-x', model: "it's" });
    expect(quoted.openai).toContain(`model: 'it\\'s'`);
    expect(quoted.curl).toContain(`"model":"it'\\''s"`);
  });
});

describe('keyPrefix', () => {
  it('cuts a shown key to its prefix', () => {
    expect(keyPrefix('sk-abcd...wxyz')).toBe('sk-abcd...');
    expect(keyPrefix('sk-****')).toBe('sk-****');
  });
});
