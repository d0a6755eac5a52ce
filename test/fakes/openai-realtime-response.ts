import { fakeSpeechAudio, splitBytes } from './fake-audio-bytes.js';
import { splitIntoDeltas, type FakeUsage } from './fake-upstream.js';

/**
 * The server events of one Realtime response, in the API's order
 * (https://platform.openai.com/docs/api-reference/realtime-server-events/response): created, the
 * assistant item and its content part, the deltas, the part and item done; `response.done` apart,
 * so a response can be held back before it.
 */
export interface RealtimeResponsePlan {
  id: string;
  itemId: string;
  previousItemId: string | null;
  conversationId: string;
  text: string;
  /** Audio with its transcript (`output_modalities` holds `audio`), else text. */
  audio: boolean;
  voice: string;
  usage: FakeUsage;
  audioBytes: number;
  audioChunkBytes: number;
}

export type RealtimeServerEvent = { type: string } & Record<string, unknown>;

export function realtimeResponseEvents(plan: RealtimeResponsePlan): RealtimeServerEvent[] {
  const where = { response_id: plan.id, item_id: plan.itemId, output_index: 0, content_index: 0 };
  const emptyItem = assistantItem(plan, 'in_progress', []);
  const doneItem = assistantItem(plan, 'completed', [content(plan)]);
  return [
    { type: 'response.created', response: responseObject(plan, { status: 'in_progress', output: [] }) },
    { type: 'response.output_item.added', response_id: plan.id, output_index: 0, item: emptyItem },
    { type: 'conversation.item.added', previous_item_id: plan.previousItemId, item: emptyItem },
    { type: 'response.content_part.added', ...where, part: part(plan, '') },
    ...(plan.audio ? audioDeltas(plan, where) : textDeltas(plan, where)),
    { type: 'response.content_part.done', ...where, part: part(plan, plan.text) },
    { type: 'conversation.item.done', previous_item_id: plan.previousItemId, item: doneItem },
    { type: 'response.output_item.done', response_id: plan.id, output_index: 0, item: doneItem },
  ];
}

/** `response.done`: completed, or cancelled by the client's `response.cancel`; usage either way. */
export function realtimeResponseDone(
  plan: RealtimeResponsePlan,
  status: 'completed' | 'cancelled',
): RealtimeServerEvent {
  const cancelled = status === 'cancelled';
  const item = assistantItem(plan, cancelled ? 'incomplete' : 'completed', [content(plan)]);
  return {
    type: 'response.done',
    response: responseObject(plan, {
      status,
      output: [item],
      statusDetails: cancelled ? { type: 'cancelled', reason: 'client_cancelled' } : null,
      usage: realtimeUsage(plan.usage),
    }),
  };
}

/**
 * `RealtimeResponseUsage`: of the input, `inputAudioTokens` are audio and `cachedTokens` cached
 * (`cachedAudioTokens` of them audio); of the output, `outputAudioTokens` are audio; text is the rest.
 */
export function realtimeUsage(usage: FakeUsage) {
  const inputAudio = usage.inputAudioTokens ?? 0;
  const cachedAudio = usage.cachedAudioTokens ?? 0;
  const outputAudio = usage.outputAudioTokens ?? 0;
  return {
    total_tokens: usage.inputTokens + usage.outputTokens,
    input_tokens: usage.inputTokens,
    output_tokens: usage.outputTokens,
    input_token_details: {
      text_tokens: usage.inputTokens - inputAudio,
      audio_tokens: inputAudio,
      image_tokens: 0,
      cached_tokens: usage.cachedTokens,
      cached_tokens_details: {
        text_tokens: usage.cachedTokens - cachedAudio,
        audio_tokens: cachedAudio,
        image_tokens: 0,
      },
    },
    output_token_details: { text_tokens: usage.outputTokens - outputAudio, audio_tokens: outputAudio },
  };
}

type Where = { response_id: string; item_id: string; output_index: number; content_index: number };

function textDeltas(plan: RealtimeResponsePlan, where: Where): RealtimeServerEvent[] {
  return [
    ...splitIntoDeltas(plan.text).map((delta) => ({ type: 'response.output_text.delta', ...where, delta })),
    { type: 'response.output_text.done', ...where, text: plan.text },
  ];
}

/** Transcript and audio deltas in turn, then the audio's end and the whole transcript. */
function audioDeltas(plan: RealtimeResponsePlan, where: Where): RealtimeServerEvent[] {
  const transcript = splitIntoDeltas(plan.text);
  const audio = splitBytes(fakeSpeechAudio('pcm', plan.audioBytes), plan.audioChunkBytes);
  const events: RealtimeServerEvent[] = [];
  for (let index = 0; index < Math.max(transcript.length, audio.length); index += 1) {
    const words = transcript[index];
    const chunk = audio[index];
    if (words !== undefined)
      events.push({ type: 'response.output_audio_transcript.delta', ...where, delta: words });
    if (chunk !== undefined)
      events.push({ type: 'response.output_audio.delta', ...where, delta: chunk.toString('base64') });
  }
  return [
    ...events,
    { type: 'response.output_audio.done', ...where },
    { type: 'response.output_audio_transcript.done', ...where, transcript: plan.text },
  ];
}

function responseObject(
  plan: RealtimeResponsePlan,
  state: { status: string; output: unknown[]; statusDetails?: unknown; usage?: unknown },
) {
  return {
    object: 'realtime.response',
    id: plan.id,
    status: state.status,
    status_details: state.statusDetails ?? null,
    output: state.output,
    conversation_id: plan.conversationId,
    output_modalities: [plan.audio ? 'audio' : 'text'],
    max_output_tokens: 'inf',
    audio: { output: { format: { type: 'audio/pcm', rate: 24000 }, voice: plan.voice } },
    usage: state.usage ?? null,
    metadata: null,
  };
}

function assistantItem(plan: RealtimeResponsePlan, status: string, itemContent: unknown[]) {
  return {
    id: plan.itemId,
    type: 'message',
    status,
    role: 'assistant',
    content: itemContent,
    object: 'realtime.item',
  };
}

function content(plan: RealtimeResponsePlan) {
  return plan.audio
    ? { type: 'output_audio', transcript: plan.text }
    : { type: 'output_text', text: plan.text };
}

function part(plan: RealtimeResponsePlan, text: string) {
  return plan.audio ? { type: 'audio', transcript: text } : { type: 'text', text };
}
