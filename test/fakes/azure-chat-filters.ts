import { asRecord, sseEvent, type FakeReply } from './fake-upstream.js';

// Azure's content filtering annotations:
// https://learn.microsoft.com/azure/ai-foundry/openai/concepts/content-filter#annotations
const safe = { filtered: false, severity: 'safe' };
const notDetected = { filtered: false, detected: false };

export const AZURE_PROMPT_FILTER_RESULTS = [
  {
    prompt_index: 0,
    content_filter_results: {
      hate: safe,
      jailbreak: notDetected,
      self_harm: safe,
      sexual: safe,
      violence: safe,
    },
  },
];

export const AZURE_COMPLETION_FILTER_RESULTS = {
  hate: safe,
  protected_material_code: notDetected,
  protected_material_text: notDetected,
  self_harm: safe,
  sexual: safe,
  violence: safe,
};

/**
 * The OpenAI fake's chat reply as Azure sends it: the deployment's model name, the prompt's filter
 * results beside the choices and each choice's own. A stream opens with a chunk of no choices that
 * holds only the prompt's results (empty `id`, `model` and `object`), and every choice chunk
 * carries its results, empty on the opening role delta.
 */
export function azureChatReply(reply: FakeReply, model: string): FakeReply {
  switch (reply.kind) {
    case 'json': {
      const body = asRecord(reply.body);
      return {
        kind: 'json',
        body: {
          ...body,
          model,
          prompt_filter_results: AZURE_PROMPT_FILTER_RESULTS,
          choices: choicesOf(body).map((choice) => ({
            ...choice,
            content_filter_results: AZURE_COMPLETION_FILTER_RESULTS,
          })),
        },
      };
    }
    case 'sse':
      return { kind: 'sse', events: [promptFilterChunk(), ...reply.events.map((e) => chunk(e, model))] };
    case 'event-stream':
    case 'bytes':
      return reply;
  }
}

function promptFilterChunk(): string {
  return sseEvent({
    choices: [],
    created: 0,
    id: '',
    model: '',
    object: '',
    prompt_filter_results: AZURE_PROMPT_FILTER_RESULTS,
  });
}

function chunk(event: string, model: string): string {
  const data = event.replace(/^data: /, '').trimEnd();
  if (data === '[DONE]') return event;
  // The OpenAI fake's own output: trusted JSON.
  const body = asRecord(JSON.parse(data) as unknown);
  const choices = choicesOf(body).map((choice) => ({
    ...choice,
    content_filter_results: asRecord(choice.delta).role === undefined ? AZURE_COMPLETION_FILTER_RESULTS : {},
  }));
  return sseEvent({ ...body, model, choices });
}

function choicesOf(body: Record<string, unknown>): Record<string, unknown>[] {
  return Array.isArray(body.choices) ? body.choices.map(asRecord) : [];
}
