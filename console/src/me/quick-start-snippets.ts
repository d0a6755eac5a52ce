export interface SnippetOptions {
  /** This gateway's address, e.g. `https://gateway.example.com`. */
  origin: string;
  /** What stands for the key: its shown prefix, to be replaced by the full key. */
  apiKey: string;
  model: string;
}

export type SnippetName = 'openai' | 'anthropic' | 'google' | 'curl';

/** A JavaScript string literal in single quotes, as the rest of the snippets write them. */
const quote = (text: string) =>
  `'${text.replaceAll('\\', '\\\\').replaceAll("'", "\\'").replaceAll('\n', '\\n')}'`;

/**
 * Ready-to-run code for the three official SDKs and curl, pointed at this gateway
 * (README, "Client SDKs": `{origin}/v1` for OpenAI, `{origin}` for Anthropic and Google).
 */
export function quickStartSnippets({ origin, apiKey, model }: SnippetOptions): Record<SnippetName, string> {
  const base = origin.replace(/\/+$/, '');
  const body = JSON.stringify({ model, messages: [{ role: 'user', content: 'Hello!' }] });
  return {
    openai: `import OpenAI from 'openai';

const client = new OpenAI({
  baseURL: ${quote(`${base}/v1`)},
  apiKey: ${quote(apiKey)},
});

const completion = await client.chat.completions.create({
  model: ${quote(model)},
  messages: [{ role: 'user', content: 'Hello!' }],
});
console.log(completion.choices[0].message.content);
`,
    anthropic: `import Anthropic from '@anthropic-ai/sdk';

const client = new Anthropic({
  baseURL: ${quote(base)},
  apiKey: ${quote(apiKey)},
});

const message = await client.messages.create({
  model: ${quote(model)},
  max_tokens: 1024,
  messages: [{ role: 'user', content: 'Hello!' }],
});
console.log(message.content);
`,
    google: `import { GoogleGenAI } from '@google/genai';

const ai = new GoogleGenAI({
  apiKey: ${quote(apiKey)},
  httpOptions: { baseUrl: ${quote(base)} },
});

const response = await ai.models.generateContent({
  model: ${quote(model)},
  contents: 'Hello!',
});
console.log(response.text);
`,
    curl: `curl ${base}/v1/chat/completions \\
  -H "Authorization: Bearer ${apiKey}" \\
  -H "Content-Type: application/json" \\
  -d '${body.replaceAll("'", "'\\''")}'
`,
  };
}

/** The shown form of a key (`sk-abcd...wxyz`) cut to its prefix, marked as incomplete: `sk-abcd...`. */
export function keyPrefix(maskedKey: string): string {
  const cut = maskedKey.indexOf('...');
  return cut < 0 ? maskedKey : `${maskedKey.slice(0, cut)}...`;
}
