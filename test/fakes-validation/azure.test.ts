import OpenAI, { AzureOpenAI } from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AZURE_COMPLETION_FILTER_RESULTS, AZURE_PROMPT_FILTER_RESULTS } from '../fakes/azure-chat-filters.js';
import {
  AZURE_ACCESS_DENIED,
  AZURE_CONTENT_FILTER_ERROR,
  startFakeAzure,
  type FakeAzure,
} from '../fakes/fake-azure.js';

// The fake Azure resource answers the `openai` package's Azure clients as Azure does.
const apiKey = 'azure-validation-key';
const deployment = 'gpt4o-prod';
const messages = [{ role: 'user' as const, content: 'hi' }];

type AzureCompletion = OpenAI.Chat.ChatCompletion & { prompt_filter_results?: unknown };
type AzureChunk = OpenAI.Chat.ChatCompletionChunk & { prompt_filter_results?: unknown };

let fake: FakeAzure;
const dated = (options: { apiVersion?: string; deployment?: string; apiKey?: string } = {}) =>
  new AzureOpenAI({
    apiKey: options.apiKey ?? apiKey,
    endpoint: fake.origin,
    apiVersion: options.apiVersion ?? '2024-10-21',
    deployment: options.deployment ?? deployment,
    maxRetries: 0,
  });
// The v1 API with the plain client, as Microsoft documents it.
const v1 = (key = apiKey) =>
  new OpenAI({
    baseURL: `${fake.origin}/openai/v1`,
    apiKey: key,
    defaultHeaders: { 'api-key': key },
    maxRetries: 0,
  });

beforeAll(async () => {
  fake = await startFakeAzure({ apiKey, deployments: { [deployment]: 'gpt-4o-2024-11-20' } });
});
afterAll(() => fake.close());
beforeEach(() => fake.clear());

describe('fake Azure OpenAI, dated API versions (AzureOpenAI client)', () => {
  it('chat JSON at the deployment path, with filter results and the deployment model', async () => {
    const completion: AzureCompletion = await dated().chat.completions.create({ model: 'ignored', messages });
    expect(completion.choices[0]?.message.content).toBe('Hello from fake Azure OpenAI.');
    expect(completion.model).toBe('gpt-4o-2024-11-20');
    expect(completion.prompt_filter_results).toEqual(AZURE_PROMPT_FILTER_RESULTS);
    expect(completion.choices[0]).toMatchObject({ content_filter_results: AZURE_COMPLETION_FILTER_RESULTS });
    const [received] = fake.requests;
    expect(received?.path).toBe(`/openai/deployments/${deployment}/chat/completions`);
    expect(received?.query.get('api-version')).toBe('2024-10-21');
    expect(received?.headers['api-key']).toBe(apiKey);
  });

  it('chat stream: a first chunk of no choices with the prompt results, then chunks with theirs', async () => {
    const stream = await dated().chat.completions.create({
      model: deployment,
      messages,
      stream: true,
      stream_options: { include_usage: true },
    });
    const chunks: AzureChunk[] = [];
    for await (const chunk of stream) chunks.push(chunk);
    expect(chunks[0]).toEqual({
      choices: [],
      created: 0,
      id: '',
      model: '',
      object: '',
      prompt_filter_results: AZURE_PROMPT_FILTER_RESULTS,
    });
    const withChoices = chunks.filter((chunk) => chunk.choices.length > 0);
    expect(withChoices.length).toBeGreaterThan(2);
    for (const chunk of withChoices.slice(1)) {
      expect(chunk.model).toBe('gpt-4o-2024-11-20');
      expect(chunk.choices[0]).toMatchObject({ content_filter_results: AZURE_COMPLETION_FILTER_RESULTS });
    }
    expect(withChoices.map((chunk) => chunk.choices[0]?.delta.content ?? '').join('')).toBe(
      'Hello from fake Azure OpenAI.',
    );
    expect(chunks.at(-1)?.usage).toMatchObject({ prompt_tokens: 20, completion_tokens: 12 });
  });

  it("the SDK's stream helper assembles such a stream", async () => {
    const stream = dated().chat.completions.stream({ model: deployment, messages });
    const final = await stream.finalChatCompletion();
    expect(final.choices[0]?.message.content).toBe('Hello from fake Azure OpenAI.');
  });

  it('responses at /openai/responses, deployment in the body, from 2025-03-01-preview on', async () => {
    const client = dated({ apiVersion: '2025-04-01-preview' });
    const response = await client.responses.create({ model: deployment, input: 'hi' });
    expect(response.output_text).toBe('Hello from fake Azure OpenAI.');
    expect(fake.requests[0]?.url).toBe('/openai/responses?api-version=2025-04-01-preview');
    await expect(dated().responses.create({ model: deployment, input: 'hi' })).rejects.toMatchObject({
      status: 400,
      error: { code: 'BadRequest', message: expect.stringMatching(/^Azure OpenAI Responses API/) },
    });
  });

  it('a wrong key is refused with 401 in Azure words', async () => {
    await expect(
      dated({ apiKey: 'wrong' }).chat.completions.create({ model: deployment, messages }),
    ).rejects.toMatchObject({ status: 401, error: { code: '401', message: AZURE_ACCESS_DENIED } });
  });

  it('a missing api-version is a 404, an unknown one a 400', async () => {
    const noVersion = new OpenAI({
      baseURL: `${fake.origin}/openai/deployments/${deployment}`,
      apiKey,
      defaultHeaders: { 'api-key': apiKey },
      maxRetries: 0,
    });
    await expect(noVersion.chat.completions.create({ model: deployment, messages })).rejects.toMatchObject({
      status: 404,
      error: { code: '404', message: 'Resource not found' },
    });
    await expect(
      dated({ apiVersion: '2023-01-01' }).chat.completions.create({ model: deployment, messages }),
    ).rejects.toMatchObject({
      status: 400,
      error: { code: 'BadRequest', message: 'API version not supported' },
    });
  });

  it('an unknown deployment is a 404 DeploymentNotFound', async () => {
    await expect(
      dated({ deployment: 'nope' }).chat.completions.create({ model: 'nope', messages }),
    ).rejects.toMatchObject({ status: 404, error: { code: 'DeploymentNotFound' } });
  });
});

describe('fake Azure OpenAI, v1 API (OpenAI client)', () => {
  it('chat and responses at /openai/v1 with the deployment as model', async () => {
    const completion = await v1().chat.completions.create({ model: deployment, messages });
    expect(completion.choices[0]?.message.content).toBe('Hello from fake Azure OpenAI.');
    const response = await v1().responses.create({ model: deployment, input: 'hi' });
    expect(response.output_text).toBe('Hello from fake Azure OpenAI.');
    expect(fake.requests.map((request) => request.url)).toEqual([
      '/openai/v1/chat/completions',
      '/openai/v1/responses',
    ]);
  });

  it('a body model that is no deployment: 404; a wrong key: 401', async () => {
    await expect(v1().chat.completions.create({ model: 'gpt-4o', messages })).rejects.toMatchObject({
      status: 404,
      error: { code: 'DeploymentNotFound' },
    });
    await expect(v1('wrong').chat.completions.create({ model: deployment, messages })).rejects.toMatchObject({
      status: 401,
    });
  });

  it('without any key, and the exact bodies of refusals', async () => {
    const noKey = await fetch(`${fake.origin}/openai/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: deployment, messages }),
    });
    expect(noKey.status).toBe(401);
    expect(await noKey.json()).toEqual({ error: { code: '401', message: AZURE_ACCESS_DENIED } });
  });

  it('a scripted content filter refusal: 400 with the innererror', async () => {
    fake.scriptContentFilter();
    const filtered = await fetch(`${fake.origin}/openai/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'api-key': apiKey },
      body: JSON.stringify({ model: deployment, messages }),
    });
    expect(filtered.status).toBe(400);
    expect(await filtered.json()).toEqual(AZURE_CONTENT_FILTER_ERROR);
    fake.scriptContentFilter();
    await expect(v1().chat.completions.create({ model: deployment, messages })).rejects.toMatchObject({
      status: 400,
      code: 'content_filter',
      param: 'prompt',
    });
  });
});
