/**
 * `npm run bench:codecs`: the CPU time per stream chunk of the gateway's stream readers and writers
 * alone, in a loop, on the 100-chunk streams the bench upstream sends (`bench-dialects.ts`): the
 * passthrough taps of chat completions and of Anthropic messages, and four conversions (decoder and
 * encoder): an Anthropic stream to a chat client, and a chat stream to an Anthropic, a Responses and
 * a Gemini client. The chat tap and the chat stream to an Anthropic client are timed again on the
 * same stream as OpenAI itself writes it, with its padding. Prints nanoseconds per chunk, the median of `BENCH_CODEC_ROUNDS` rounds of
 * `BENCH_CODEC_STREAMS` streams each, after as many streams to warm up. `BENCH_BUILD` names another
 * build's root (with its `dist/`) to measure that one instead, for a comparison of two builds run one
 * after the other.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchDialects, type Dialect } from './bench-dialects.js';

const root = process.env.BENCH_BUILD ?? path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const rounds = Number(process.env.BENCH_CODEC_ROUNDS ?? 5);
const streams = Number(process.env.BENCH_CODEC_STREAMS ?? 20_000);
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

const cases: [string, () => void][] = [
  ['chat completions, passthrough tap', tapped(openAIChatPassthrough, chatStream)],
  [
    "OpenAI's own chat stream (obfuscation), passthrough tap",
    tapped(openAIChatPassthrough, openAIChatStream),
  ],
  ['Anthropic messages, passthrough tap', tapped(anthropicMessagesPassthrough, messagesStream)],
  ['Anthropic stream to a chat client', converted(anthropicMessagesCodec, openAIChatCodec, messagesStream)],
  ['chat stream to an Anthropic client', converted(openAIChatCodec, anthropicMessagesCodec, chatStream)],
  [
    "OpenAI's own chat stream to an Anthropic client",
    converted(openAIChatCodec, anthropicMessagesCodec, openAIChatStream),
  ],
  ['chat stream to a Responses client', converted(openAIChatCodec, openAIResponsesCodec, chatStream)],
  ['chat stream to a Gemini client', converted(openAIChatCodec, geminiCodec, chatStream)],
];

console.log(`build: ${root}`);
for (const [name, run] of cases) {
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
