import { GatewayError } from '../../errors/gateway-error.js';

/**
 * What `POST /v1/audio/speech` must carry before anything is charged
 * (https://platform.openai.com/docs/api-reference/audio/createSpeech): `input` text and a `voice`
 * (a name, or `{ "id": ... }` for a custom voice); the optional members, when present, of their
 * types. `model` and the presence of `input` are checked by the relay.
 */
export function checkSpeechRequest(body: Record<string, unknown>): void {
  const { input, voice } = body;
  if (typeof input !== 'string') throw invalid('input', 'a string');
  if (voice === undefined || voice === null) throw new GatewayError('field_required', { field: 'voice' });
  if (typeof voice !== 'string' && !isVoiceId(voice)) throw invalid('voice', 'a string or {"id": string}');
  for (const field of ['response_format', 'instructions', 'stream_format'])
    if (body[field] !== undefined && typeof body[field] !== 'string') throw invalid(field, 'a string');
  if (body.speed !== undefined && (typeof body.speed !== 'number' || !Number.isFinite(body.speed)))
    throw invalid('speed', 'a number');
}

function isVoiceId(voice: unknown): boolean {
  return typeof voice === 'object' && voice !== null && typeof (voice as { id?: unknown }).id === 'string';
}

function invalid(field: string, expected: string): GatewayError {
  return new GatewayError('field_invalid', { field, expected });
}

/** The characters `per_million_characters` bills: Unicode code points, as people count them. */
export function countCharacters(text: string): number {
  let count = 0;
  for (const _ of text) count += 1;
  return count;
}
