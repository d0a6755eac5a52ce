import { FAKE_CREATED_AT, isRecord } from './fake-upstream.js';

/**
 * A Realtime session's configuration as `session.created` reports it, and how `session.update`
 * changes it (https://platform.openai.com/docs/api-reference/realtime-server-events/session/created).
 */

/** A new GA session: audio out, alloy, 24 kHz PCM both ways, server VAD. */
export function defaultRealtimeSession(options: { id: string; model: string }): Record<string, unknown> {
  const pcm = { type: 'audio/pcm', rate: 24000 };
  return {
    type: 'realtime',
    object: 'realtime.session',
    id: options.id,
    model: options.model,
    output_modalities: ['audio'],
    instructions: '',
    tools: [],
    tool_choice: 'auto',
    max_output_tokens: 'inf',
    tracing: null,
    truncation: 'auto',
    prompt: null,
    expires_at: FAKE_CREATED_AT + 3600,
    audio: {
      input: {
        format: pcm,
        transcription: null,
        noise_reduction: null,
        turn_detection: {
          type: 'server_vad',
          threshold: 0.5,
          prefix_padding_ms: 300,
          silence_duration_ms: 200,
          idle_timeout_ms: null,
          create_response: true,
          interrupt_response: true,
        },
      },
      output: { format: pcm, voice: 'alloy', speed: 1 },
    },
    include: null,
  };
}

/** The session after an update: objects merge member by member, anything else is replaced. */
export function updateRealtimeSession(
  session: Record<string, unknown>,
  update: Record<string, unknown>,
): Record<string, unknown> {
  const merged: Record<string, unknown> = { ...session };
  for (const [name, value] of Object.entries(update)) {
    const current = merged[name];
    merged[name] = isRecord(current) && isRecord(value) ? updateRealtimeSession(current, value) : value;
  }
  return merged;
}
