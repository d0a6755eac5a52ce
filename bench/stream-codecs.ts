/**
 * `npm run bench:codecs`: the CPU time per stream chunk of the gateway's stream readers and writers
 * alone, in a loop, on the 100-chunk streams the bench upstream sends (`bench-dialects.ts`): the
 * passthrough taps of chat completions and of Anthropic messages, and four conversions (decoder and
 * encoder): an Anthropic stream to a chat client, and a chat stream to an Anthropic, a Responses and
 * a Gemini client. The chat tap and the chat stream to an Anthropic client are timed again on the
 * same stream as OpenAI itself writes it, with its padding, and as a reasoning model of an
 * OpenAI-compatible vendor writes it (half of it `reasoning_content`) and as one tool call's
 * arguments, and the same pieces as OpenAI writes a
 * Responses stream are timed through the Responses tap and to a chat client, and the same pieces
 * as Gemini streams them through the Gemini tap and to a chat client. Bedrock's two streams are
 * timed from their AWS event-stream frames, as the gateway reads them (framing, then SSE events):
 * the Anthropic stream of invoke-with-response-stream through the Anthropic tap, and a converse
 * stream to a chat client. Prints nanoseconds per chunk, the median of `BENCH_CODEC_ROUNDS` rounds of
 * `BENCH_CODEC_STREAMS` streams each, after as many streams to warm up; `BENCH_CODEC_ONLY` times
 * only the cases whose name contains it. `BENCH_BUILD` names another
 * build's root (with its `dist/`) to measure that one instead, for a comparison of two builds run one
 * after the other.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { EventStreamCodec } from '@smithy/eventstream-codec';
import { fromUtf8, toUtf8 } from '@smithy/util-utf8';
import { benchDialects, type Dialect } from './bench-dialects.js';

const root = process.env.BENCH_BUILD ?? path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const rounds = Number(process.env.BENCH_CODEC_ROUNDS ?? 5);
const streams = Number(process.env.BENCH_CODEC_STREAMS ?? 20_000);
const only = process.env.BENCH_CODEC_ONLY ?? '';
const CHUNKS = 100;

interface SseEvent {
  event: string | undefined;
  id: undefined;
  data: string;
}
/** The parts of the built gateway used here (imported from `dist/`, outside this project's root). */
interface Tap {
  onEvent(event: SseEvent): unknown;
  producedText(): string;
}
interface Codec {
  createStreamDecoder(losses: unknown): { push(event: SseEvent): object[]; end(): object[] };
  createStreamEncoder(options: object): { push(event: object): string; end(): string };
}
interface Passthrough {
  createStreamTap(options: { hideUsageEvents: boolean }): Tap;
}
const load = (file: string) => import(path.join(root, 'dist/protocols', file));
const { anthropicMessagesCodec } = (await load('anthropic-messages/codec.js')) as {
  anthropicMessagesCodec: Codec;
};
const { openAIChatCodec } = (await load('openai-chat/codec.js')) as { openAIChatCodec: Codec };
const { openAIResponsesCodec } = (await load('openai-responses/codec.js')) as {
  openAIResponsesCodec: Codec;
};
const { geminiCodec } = (await load('gemini/codec.js')) as { geminiCodec: Codec };
const { anthropicMessagesPassthrough } = (await load('anthropic-messages/passthrough.js')) as {
  anthropicMessagesPassthrough: Passthrough;
};
const { openAIChatPassthrough } = (await load('openai-chat/passthrough.js')) as {
  openAIChatPassthrough: Passthrough;
};
const { openAIResponsesPassthrough } = (await load('openai-responses/passthrough.js')) as {
  openAIResponsesPassthrough: Passthrough;
};
const { geminiPassthrough } = (await load('gemini/passthrough.js')) as { geminiPassthrough: Passthrough };
const { bedrockConverseCodec } = (await load('bedrock-converse/codec.js')) as { bedrockConverseCodec: Codec };
const { createBedrockStreamFraming } = (await import(
  path.join(root, 'dist/providers/bedrock/bedrock-stream-framing.js')
)) as { createBedrockStreamFraming(mode: 'invoke' | 'converse'): { push(chunk: Buffer): string } };
const { SseEventReader } = (await load('sse/sse-event-reader.js')) as {
  SseEventReader: new (onEvent: (event: SseEvent) => void) => { push(chunk: Uint8Array): void };
};
const { LossLog } = (await import(path.join(root, 'dist/ir/loss.js'))) as { LossLog: new () => unknown };

/** A stream as the bench upstream writes it, read back into events (each frame one `data` line). */
function events(dialect: Dialect): SseEvent[] {
  const text = dialect.opening + dialect.chunks.join('') + dialect.closing(true);
  return text
    .split('\n\n')
    .filter(Boolean)
    .map((frame) => {
      const lines = frame.split('\n');
      const name = lines.find((line) => line.startsWith('event: '))?.slice('event: '.length);
      const data = lines.find((line) => line.startsWith('data: '))!.slice('data: '.length);
      return { event: name, id: undefined, data };
    });
}
const dialects = benchDialects(CHUNKS);
const chatStream = events(dialects.chat);
const messagesStream = events(dialects.messages);
/**
 * The chat stream as OpenAI itself sends it: with the service tier, a system fingerprint, `usage:
 * null` in every chunk but the last, and random padding of random length in `obfuscation`.
 */
const openAIChatStream = chatStream.map((item, index): SseEvent => {
  if (item.data === '[DONE]') return item;
  const { choices, usage, ...head } = JSON.parse(item.data);
  const padding = 'k3Xq9ZbT0wLm4Rv7'.slice(0, (index * 7) % 17);
  const chunk = {
    ...head,
    service_tier: 'default',
    system_fingerprint: 'fp_bench',
    choices,
    usage: usage ?? null,
  };
  return { ...item, data: JSON.stringify({ ...chunk, obfuscation: padding }) };
});

/**
 * The chat stream as a reasoning model of an OpenAI-compatible vendor sends it (DeepSeek's
 * `reasoning_content`): the first half of the pieces as reasoning, the rest as the answer.
 */
const reasoningChatStream = chatStream.map((item, index): SseEvent => {
  if (item.data === '[DONE]') return item;
  const chunk = JSON.parse(item.data);
  const delta = chunk.choices[0]?.delta;
  if (typeof delta?.content !== 'string' || delta.content === '') return item;
  const reasoning = index <= CHUNKS / 2;
  chunk.choices[0].delta = reasoning
    ? { content: null, reasoning_content: delta.content }
    : { content: delta.content, reasoning_content: null };
  return { ...item, data: JSON.stringify({ ...chunk, system_fingerprint: 'fp_bench' }) };
});

/**
 * The same pieces as one tool call's arguments, as a coding agent's edits stream: the call's id and
 * name first, then chunks of arguments alone, then the finish.
 */
const toolCallChatStream = ((): SseEvent[] => {
  const head = JSON.parse(chatStream[0]!.data);
  const chunk = (delta: object, finish: string | null = null) => ({
    event: undefined,
    id: undefined,
    data: JSON.stringify({ ...head, choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }] }),
  });
  const pieces = dialects.chat.chunks.map((frame) =>
    JSON.stringify(JSON.parse(frame.slice('data: '.length)).choices[0].delta.content).slice(1, -1),
  );
  const call = {
    index: 0,
    id: 'call_bench',
    type: 'function',
    function: { name: 'write_file', arguments: '{"text":"' },
  };
  return [
    chunk({ role: 'assistant', content: null, tool_calls: [call] }),
    ...pieces.map((piece) => chunk({ tool_calls: [{ index: 0, function: { arguments: piece } }] })),
    chunk({ tool_calls: [{ index: 0, function: { arguments: '"}' } }] }),
    chunk({}, 'tool_calls'),
    { event: undefined, id: undefined, data: '[DONE]' },
  ];
})();

/** A Responses stream of the same 100 pieces as OpenAI writes it: numbered events, padded deltas. */
const openAIResponsesStream = ((): SseEvent[] => {
  const pieces = dialects.chat.chunks.map(
    (frame) => JSON.parse(frame.slice('data: '.length)).choices[0].delta.content,
  );
  const text = pieces.join('');
  const response = (status: string, extra: object = {}) => ({
    id: 'resp_bench',
    object: 'response',
    created_at: 1_700_000_000,
    status,
    model: 'bench-model',
    output: [],
    ...extra,
  });
  const part = (content: string) => ({ type: 'output_text', annotations: [], logprobs: [], text: content });
  const item = (status: string, content: object[]) => ({
    id: 'msg_bench',
    type: 'message',
    status,
    content,
    role: 'assistant',
  });
  const place = { item_id: 'msg_bench', output_index: 0, content_index: 0 };
  const bodies: ({ type: string } & Record<string, unknown>)[] = [
    { type: 'response.created', response: response('in_progress') },
    { type: 'response.in_progress', response: response('in_progress') },
    { type: 'response.output_item.added', output_index: 0, item: item('in_progress', []) },
    { type: 'response.content_part.added', ...place, part: part('') },
    ...pieces.map((delta, index) => ({
      type: 'response.output_text.delta',
      ...place,
      delta,
      logprobs: [],
      obfuscation: 'k3Xq9ZbT0wLm4Rv7'.slice(0, (index * 7) % 17),
    })),
    { type: 'response.output_text.done', ...place, text, logprobs: [] },
    { type: 'response.content_part.done', ...place, part: part(text) },
    { type: 'response.output_item.done', output_index: 0, item: item('completed', [part(text)]) },
    {
      type: 'response.completed',
      response: response('completed', {
        output: [item('completed', [part(text)])],
        usage: { input_tokens: 12, output_tokens: CHUNKS, total_tokens: 12 + CHUNKS },
      }),
    },
  ];
  return bodies.map(({ type, ...rest }, sequence) => ({
    event: type,
    id: undefined,
    data: JSON.stringify({ type, sequence_number: sequence, ...rest }),
  }));
})();

/**
 * The same 100 pieces as Gemini streams them (`alt=sse`): each chunk a whole response with the usage
 * so far, written with a space after every colon; the last one carries the finish.
 */
const geminiStream = ((): SseEvent[] => {
  const pieces = dialects.chat.chunks.map(
    (frame) => JSON.parse(frame.slice('data: '.length)).choices[0].delta.content as string,
  );
  const written = (value: unknown): string => {
    if (Array.isArray(value)) return `[${value.map(written).join(',')}]`;
    if (value === null || typeof value !== 'object') return JSON.stringify(value);
    return `{${Object.entries(value)
      .map(([key, member]) => `${JSON.stringify(key)}: ${written(member)}`)
      .join(',')}}`;
  };
  const prompt = 12;
  return pieces.map((text, index) => {
    const last = index === pieces.length - 1;
    const candidate = {
      content: { parts: [{ text }], role: 'model' },
      ...(last && { finishReason: 'STOP' }),
      index: 0,
    };
    const usageMetadata = {
      promptTokenCount: prompt,
      ...(index > 0 && { candidatesTokenCount: index + 1 }),
      totalTokenCount: prompt + index + 1,
      ...((index === 0 || last) && { promptTokensDetails: [{ modality: 'TEXT', tokenCount: prompt }] }),
    };
    const chunk = {
      candidates: [candidate],
      usageMetadata,
      modelVersion: 'bench-model',
      responseId: 'mPQcaZ2gB9qx',
    };
    return { event: undefined, id: undefined, data: written(chunk) };
  });
})();

/** An AWS event-stream frame as Bedrock sends it, its payload padded with `p` as Bedrock pads it. */
const eventStream = new EventStreamCodec(toUtf8, fromUtf8);
const bedrockFrame = (eventType: string, payload: object, index: number): Buffer => {
  const headers = { ':event-type': eventType, ':content-type': 'application/json', ':message-type': 'event' };
  const typed = Object.fromEntries(
    Object.entries(headers).map(([name, value]) => [name, { type: 'string' as const, value }]),
  );
  const p = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0'.slice(0, 1 + ((index * 7) % 52));
  return Buffer.from(
    eventStream.encode({ headers: typed, body: fromUtf8(JSON.stringify({ ...payload, p })) }),
  );
};
/** The Anthropic stream as Bedrock's invoke-with-response-stream sends it: each event in a `chunk` frame. */
const bedrockInvokeFrames = messagesStream.map((item, index) =>
  bedrockFrame('chunk', { bytes: Buffer.from(item.data).toString('base64') }, index),
);
/** The same 100 pieces as Bedrock's converse-stream sends them. */
const bedrockConverseFrames = [
  bedrockFrame('messageStart', { role: 'assistant' }, 0),
  ...dialects.chat.chunks.map((frame, index) =>
    bedrockFrame(
      'contentBlockDelta',
      {
        contentBlockIndex: 0,
        delta: { text: JSON.parse(frame.slice('data: '.length)).choices[0].delta.content },
      },
      index + 1,
    ),
  ),
  bedrockFrame('contentBlockStop', { contentBlockIndex: 0 }, 1),
  bedrockFrame('messageStop', { stopReason: 'end_turn' }, 2),
  bedrockFrame(
    'metadata',
    {
      usage: { inputTokens: 12, outputTokens: CHUNKS, totalTokens: 12 + CHUNKS },
      metrics: { latencyMs: 100 },
    },
    3,
  ),
];

let written = 0;
const tapped = (passthrough: Passthrough, stream: SseEvent[]) => () => {
  const tap = passthrough.createStreamTap({ hideUsageEvents: false });
  for (const item of stream) tap.onEvent(item);
  written += tap.producedText().length;
};
const converted = (from: Codec, to: Codec, stream: SseEvent[]) => () => {
  const losses = new LossLog();
  const decoder = from.createStreamDecoder(losses);
  const encoder = to.createStreamEncoder({ losses, estimatedInputTokens: 12, model: 'bench-model' });
  for (const item of stream)
    for (const canonical of decoder.push(item)) written += encoder.push(canonical).length;
  for (const canonical of decoder.end()) written += encoder.push(canonical).length;
  written += encoder.end().length;
};

/** Frames read as the gateway reads them: to SSE text, then to events for `consume`. */
const framed = (mode: 'invoke' | 'converse', frames: Buffer[], consume: (event: SseEvent) => void) => {
  const framing = createBedrockStreamFraming(mode);
  const reader = new SseEventReader(consume);
  for (const frame of frames) reader.push(Buffer.from(framing.push(frame)));
};

const cases: [string, () => void][] = [
  ['chat completions, passthrough tap', tapped(openAIChatPassthrough, chatStream)],
  [
    "OpenAI's own chat stream (obfuscation), passthrough tap",
    tapped(openAIChatPassthrough, openAIChatStream),
  ],
  [
    'a reasoning chat stream (reasoning_content), passthrough tap',
    tapped(openAIChatPassthrough, reasoningChatStream),
  ],
  ["a tool call's arguments (chat), passthrough tap", tapped(openAIChatPassthrough, toolCallChatStream)],
  [
    "OpenAI's own Responses stream, passthrough tap",
    tapped(openAIResponsesPassthrough, openAIResponsesStream),
  ],
  ['Anthropic messages, passthrough tap', tapped(anthropicMessagesPassthrough, messagesStream)],
  ['Anthropic stream to a chat client', converted(anthropicMessagesCodec, openAIChatCodec, messagesStream)],
  ['chat stream to an Anthropic client', converted(openAIChatCodec, anthropicMessagesCodec, chatStream)],
  [
    "OpenAI's own chat stream to an Anthropic client",
    converted(openAIChatCodec, anthropicMessagesCodec, openAIChatStream),
  ],
  [
    'a reasoning chat stream to an Anthropic client',
    converted(openAIChatCodec, anthropicMessagesCodec, reasoningChatStream),
  ],
  [
    "a tool call's arguments (chat) to an Anthropic client",
    converted(openAIChatCodec, anthropicMessagesCodec, toolCallChatStream),
  ],
  ['chat stream to a Responses client', converted(openAIChatCodec, openAIResponsesCodec, chatStream)],
  [
    "OpenAI's own Responses stream to a chat client",
    converted(openAIResponsesCodec, openAIChatCodec, openAIResponsesStream),
  ],
  ['chat stream to a Gemini client', converted(openAIChatCodec, geminiCodec, chatStream)],
  ["Gemini's own stream, passthrough tap", tapped(geminiPassthrough, geminiStream)],
  ["Gemini's own stream to a chat client", converted(geminiCodec, openAIChatCodec, geminiStream)],
  [
    "Bedrock's invoke stream, framing and Anthropic tap",
    () => {
      const tap = anthropicMessagesPassthrough.createStreamTap({ hideUsageEvents: false });
      framed('invoke', bedrockInvokeFrames, (event) => tap.onEvent(event));
      written += tap.producedText().length;
    },
  ],
  [
    "Bedrock's converse stream, framing and to a chat client",
    () => {
      const losses = new LossLog();
      const decoder = bedrockConverseCodec.createStreamDecoder(losses);
      const encoder = openAIChatCodec.createStreamEncoder({
        losses,
        estimatedInputTokens: 12,
        model: 'bench-model',
      });
      framed('converse', bedrockConverseFrames, (event) => {
        for (const canonical of decoder.push(event)) written += encoder.push(canonical).length;
      });
      for (const canonical of decoder.end()) written += encoder.push(canonical).length;
      written += encoder.end().length;
    },
  ],
];

console.log(`build: ${root}`);
for (const [name, run] of cases.filter(([name]) => name.includes(only))) {
  for (let stream = 0; stream < streams; stream++) run();
  const perChunk: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const started = process.hrtime.bigint();
    for (let stream = 0; stream < streams; stream++) run();
    perChunk.push(Number(process.hrtime.bigint() - started) / streams / CHUNKS);
  }
  perChunk.sort((a, b) => a - b);
  const median = perChunk[Math.floor(perChunk.length / 2)]!;
  console.log(
    `${name}: ${median.toFixed(0)} ns per chunk (rounds ${perChunk.map((value) => value.toFixed(0)).join(', ')})`,
  );
}
if (written === 0) throw new Error('the codecs wrote nothing');
