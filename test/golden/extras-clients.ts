import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI, type GenerateContentResponse } from '@google/genai';
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { startFakeAnthropic } from '../fakes/fake-anthropic.js';
import { startFakeGemini } from '../fakes/fake-gemini.js';
import { startFakeOpenAI } from '../fakes/fake-openai.js';
import type { FakeUpstream, RecordedRequest } from '../fakes/fake-upstream.js';
import { startTestGateway, type TestGateway } from '../helpers/start-test-gateway.js';
import { MODELS, type ClientFamily, type Vendor } from '../helpers/vendor-stream-gateway.js';

export { MODELS, type ClientFamily, type Vendor };

export const FAMILIES: ClientFamily[] = ['openai-chat', 'openai-responses', 'anthropic-messages', 'gemini'];
export const VENDORS: Vendor[] = ['openai', 'anthropic', 'gemini'];
export const PROMPT = 'What is in Paris?';

const KEY = 'fidelity-upstream-key';

/** Which family's wire the gateway speaks to a vendor: an OpenAI channel gets chat completions unless the client speaks responses. */
export function upstreamFamily(family: ClientFamily, vendor: Vendor): ClientFamily {
  if (vendor === 'anthropic') return 'anthropic-messages';
  if (vendor === 'gemini') return 'gemini';
  return family === 'openai-responses' ? 'openai-responses' : 'openai-chat';
}

/** The client's own protocol reaches the upstream: the gateway passes the exchange through. */
export function isPassthrough(family: ClientFamily, vendor: Vendor): boolean {
  return upstreamFamily(family, vendor) === family;
}

export interface FamilyClients {
  openai: OpenAI;
  anthropic: Anthropic;
  google: GoogleGenAI;
}

function createClients(options: { openaiBase: string; origin: string; key: string }): FamilyClients {
  return {
    openai: new OpenAI({ apiKey: options.key, baseURL: options.openaiBase, maxRetries: 0 }),
    anthropic: new Anthropic({ apiKey: options.key, baseURL: options.origin, maxRetries: 0 }),
    google: new GoogleGenAI({ apiKey: options.key, httpOptions: { baseUrl: options.origin } }),
  };
}

export interface FidelityGateway {
  gw: TestGateway;
  fakes: Record<Vendor, FakeUpstream>;
  /** The official SDKs, pointed at the gateway with a user key. */
  clients: FamilyClients;
  /** The official SDKs pointed straight at a vendor's fake: what the vendor itself says. */
  direct: Record<Vendor, FamilyClients>;
  /** The usage log, newest first, once every settlement is done. */
  logs(): Promise<any[]>;
  /** A family's streaming request for `model`, sent to the gateway with `fetch`: the bytes the gateway wrote. */
  readRawStream(family: ClientFamily, model: string, body: Record<string, unknown>): Promise<string>;
  close(): Promise<void>;
}

/**
 * A gateway with one channel per vendor (no model mapping, so passthrough replies are the
 * upstream's own bytes), each on its own fake, every model priced, retries off, a user key.
 */
export async function startFidelityGateway(): Promise<FidelityGateway> {
  const gw = await startTestGateway();
  const fakes: Record<Vendor, FakeUpstream> = {
    openai: await startFakeOpenAI({ apiKey: KEY }),
    anthropic: await startFakeAnthropic({ apiKey: KEY }),
    gemini: await startFakeGemini({ apiKey: KEY }),
  };
  for (const vendor of VENDORS) {
    await gw.admin('POST', '/channels', {
      name: vendor,
      type: vendor,
      base_url: fakes[vendor].origin,
      keys: [KEY],
      models: [MODELS[vendor]],
    });
    await gw.admin('PUT', `/prices/${MODELS[vendor]}`, { input: 1, output: 2 });
  }
  await gw.admin('PATCH', '/settings', { retry_times: 0, channel_failure_threshold: 1000 });
  const user = await gw.admin('POST', '/users', { username: 'fidelity', balance: 100 });
  const key: string = (await gw.admin('POST', '/keys', { user_id: user.body.id })).body.key;
  const directClients = (fake: FakeUpstream) =>
    createClients({ openaiBase: `${fake.origin}/v1`, origin: fake.origin, key: KEY });
  return {
    gw,
    fakes,
    clients: createClients({ openaiBase: `${gw.origin}/v1`, origin: gw.origin, key }),
    direct: {
      openai: directClients(fakes.openai),
      anthropic: directClients(fakes.anthropic),
      gemini: directClients(fakes.gemini),
    },
    async logs() {
      await gw.gateway.services.tracker.settled();
      await gw.gateway.services.ledger.storeRecords();
      return (await gw.admin('GET', '/logs')).body.data;
    },
    async readRawStream(family, model, body) {
      const response = await fetch(`${gw.origin}${streamPath(family, model)}`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${key}`,
          'content-type': 'application/json',
          'anthropic-version': '2023-06-01',
        },
        body: JSON.stringify(family === 'gemini' ? body : { ...body, model, stream: true }),
      });
      return response.text();
    },
    async close() {
      await gw.close();
      for (const fake of Object.values(fakes)) await fake.close();
    },
  };
}

/** One gateway for the test file, its fakes forgotten (requests and scripts) before each test. */
export function useFidelityGateway(): () => FidelityGateway {
  let fixture: FidelityGateway | undefined;
  beforeAll(async () => {
    fixture = await startFidelityGateway();
  });
  afterAll(async () => {
    await fixture?.close();
  });
  beforeEach(() => {
    for (const fake of Object.values(fixture!.fakes)) fake.clear();
  });
  return () => fixture!;
}

function streamPath(family: ClientFamily, model: string): string {
  switch (family) {
    case 'openai-chat':
      return '/v1/chat/completions';
    case 'openai-responses':
      return '/v1/responses';
    case 'anthropic-messages':
      return '/v1/messages';
    case 'gemini':
      return `/v1beta/models/${model}:streamGenerateContent?alt=sse`;
  }
}

/** Sends a recorded upstream request to the fake again, as is: the bytes the vendor itself writes for it. */
export async function replayToFake(fake: FakeUpstream, request: RecordedRequest): Promise<string> {
  const response = await fetch(`${fake.origin}${request.url}`, {
    method: request.method,
    headers: {
      authorization: `Bearer ${KEY}`,
      'x-api-key': KEY,
      'x-goog-api-key': KEY,
      'anthropic-version': '2023-06-01',
      'content-type': 'application/json',
    },
    body: JSON.stringify(request.body),
  });
  return response.text();
}

/**
 * The fakes number their ids with one counter per fake, and Gemini's thought signature is derived
 * from the response id, so a replay differs from the first answer in those and nothing else.
 */
export function withStableIds(text: string): string {
  return text
    .replace(/fake\d{4}/g, 'fake####')
    .replace(/"thoughtSignature":"[^"]*"/g, '"thoughtSignature":"####"');
}

export interface FidelityRequest {
  family: ClientFamily;
  model: string;
  stream: boolean;
  text?: string;
  pdf?: { data: string; filename: string };
  schema?: { name: string; schema: Record<string, unknown> };
}

/** What a client family's SDK showed, in that family's own terms. */
export interface FidelityView {
  text: string;
  /** Chat `message.refusal`, or the Responses refusal content parts; '' elsewhere. */
  refusal: string;
  /** Chat `finish_reason`, Responses `status`, Anthropic `stop_reason`, Gemini `finishReason`. */
  finish: string | null | undefined;
  /** Responses `incomplete_details.reason`. */
  incompleteReason?: string | null;
  /** The family's usage block as the SDK returned it. */
  usage: any;
}

/** Drives the gateway (or, with `direct`, a fake) with the family's official SDK, JSON or streaming. */
export async function callFamily(clients: FamilyClients, request: FidelityRequest): Promise<FidelityView> {
  switch (request.family) {
    case 'openai-chat':
      return callChat(clients.openai, request);
    case 'openai-responses':
      return callResponses(clients.openai, request);
    case 'anthropic-messages':
      return callAnthropic(clients.anthropic, request);
    case 'gemini':
      return callGemini(clients.google, request);
  }
}

const dataUrl = (data: string) => `data:application/pdf;base64,${data}`;

async function callChat(openai: OpenAI, request: FidelityRequest): Promise<FidelityView> {
  const content: OpenAI.Chat.ChatCompletionContentPart[] = [{ type: 'text', text: request.text ?? PROMPT }];
  if (request.pdf)
    content.push({
      type: 'file',
      file: { file_data: dataUrl(request.pdf.data), filename: request.pdf.filename },
    });
  const body: OpenAI.Chat.ChatCompletionCreateParamsNonStreaming = {
    model: request.model,
    messages: [{ role: 'user', content }],
    max_completion_tokens: 1024,
    ...(request.schema && {
      response_format: {
        type: 'json_schema',
        json_schema: { name: request.schema.name, schema: request.schema.schema },
      },
    }),
  };
  if (!request.stream) {
    const completion = await openai.chat.completions.create(body);
    const choice = completion.choices[0]!;
    return {
      text: choice.message.content ?? '',
      refusal: choice.message.refusal ?? '',
      finish: choice.finish_reason,
      usage: completion.usage,
    };
  }
  const view: FidelityView = { text: '', refusal: '', finish: undefined, usage: undefined };
  const stream = await openai.chat.completions.create({
    ...body,
    stream: true,
    stream_options: { include_usage: true },
  });
  for await (const chunk of stream) {
    const choice = chunk.choices[0];
    view.text += choice?.delta.content ?? '';
    view.refusal += choice?.delta.refusal ?? '';
    if (choice?.finish_reason) view.finish = choice.finish_reason;
    if (chunk.usage) view.usage = chunk.usage;
  }
  return view;
}

async function callResponses(openai: OpenAI, request: FidelityRequest): Promise<FidelityView> {
  const content: OpenAI.Responses.ResponseInputContent[] = [
    { type: 'input_text', text: request.text ?? PROMPT },
  ];
  if (request.pdf)
    content.push({
      type: 'input_file',
      file_data: dataUrl(request.pdf.data),
      filename: request.pdf.filename,
    });
  const body: OpenAI.Responses.ResponseCreateParamsNonStreaming = {
    model: request.model,
    input: [{ role: 'user', content }],
    max_output_tokens: 1024,
    ...(request.schema && {
      text: { format: { type: 'json_schema', name: request.schema.name, schema: request.schema.schema } },
    }),
  };
  const response = request.stream
    ? await openai.responses.stream({ ...body, stream: true }).finalResponse()
    : await openai.responses.create(body);
  const parts = response.output.flatMap((item) => (item.type === 'message' ? item.content : []));
  return {
    text: response.output_text,
    refusal: parts.map((part) => (part.type === 'refusal' ? part.refusal : '')).join(''),
    finish: response.status,
    incompleteReason: response.incomplete_details?.reason ?? null,
    usage: response.usage,
  };
}

async function callAnthropic(anthropic: Anthropic, request: FidelityRequest): Promise<FidelityView> {
  const content: Anthropic.ContentBlockParam[] = [{ type: 'text', text: request.text ?? PROMPT }];
  if (request.pdf)
    content.push({
      type: 'document',
      source: { type: 'base64', media_type: 'application/pdf', data: request.pdf.data },
    });
  const body: Anthropic.MessageCreateParamsNonStreaming = {
    model: request.model,
    max_tokens: 1024,
    messages: [{ role: 'user', content }],
    // https://docs.claude.com/en/docs/build-with-claude/structured-outputs: `output_config.format`.
    ...(request.schema && {
      output_config: { format: { type: 'json_schema', schema: request.schema.schema } },
    }),
  };
  const message = request.stream
    ? await anthropic.messages.stream(body).finalMessage()
    : await anthropic.messages.create(body);
  return {
    text: message.content.map((block) => (block.type === 'text' ? block.text : '')).join(''),
    refusal: '',
    finish: message.stop_reason,
    usage: message.usage,
  };
}

async function callGemini(google: GoogleGenAI, request: FidelityRequest): Promise<FidelityView> {
  const parts: { text?: string; inlineData?: { mimeType: string; data: string } }[] = [
    { text: request.text ?? PROMPT },
  ];
  if (request.pdf) parts.push({ inlineData: { mimeType: 'application/pdf', data: request.pdf.data } });
  const body = {
    model: request.model,
    contents: [{ role: 'user', parts }],
    config: {
      maxOutputTokens: 1024,
      ...(request.schema && {
        responseMimeType: 'application/json',
        responseJsonSchema: request.schema.schema,
      }),
    },
  };
  const responses: GenerateContentResponse[] = [];
  if (request.stream)
    for await (const chunk of await google.models.generateContentStream(body)) responses.push(chunk);
  else responses.push(await google.models.generateContent(body));
  const view: FidelityView = { text: '', refusal: '', finish: undefined, usage: undefined };
  for (const response of responses) {
    const candidate = response.candidates?.[0];
    for (const part of candidate?.content?.parts ?? []) if (!part.thought) view.text += part.text ?? '';
    if (candidate?.finishReason) view.finish = candidate.finishReason;
    if (response.usageMetadata) view.usage = response.usageMetadata;
  }
  return view;
}
