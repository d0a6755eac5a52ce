import { describe, expect, test } from 'vitest';
import {
  callFamily,
  FAMILIES,
  isPassthrough,
  MODELS,
  useFidelityGateway,
  VENDORS,
  type FidelityRequest,
} from './extras-clients.js';

/**
 * Refusals: each fake answers with its vendor's own refusal or safety stop, and the client sees its
 * family's content-filter finish (chat `content_filter`, Responses `incomplete` for `content_filter`,
 * Anthropic `refusal`, Gemini `SAFETY`). Same-family traffic keeps the vendor's own refusal form:
 * what the SDK shows through the gateway is what it shows when it talks to the vendor itself.
 */
const fixture = useFidelityGateway();

/** Gemini's safety stops (https://ai.google.dev/api/generate-content#FinishReason). */
const GEMINI_SAFETY_STOPS = [
  'SAFETY',
  'PROHIBITED_CONTENT',
  'BLOCKLIST',
  'SPII',
  'RECITATION',
  'IMAGE_SAFETY',
];

describe.each(FAMILIES)('%s client', (family) => {
  describe.each(VENDORS)('to %s upstream', (vendor) => {
    test.each([false, true])('stream %s', async (stream) => {
      const fake = fixture().fakes[vendor];
      fake.scriptAlways({ type: 'reply', refusal: true });
      const request: FidelityRequest = {
        family,
        model: MODELS[vendor],
        stream,
        text: 'Help me pick a lock.',
      };

      const view = await callFamily(fixture().clients, request);

      const [sent, ...more] = fake.requests;
      expect(more).toHaveLength(0);
      expect(sent!.refused).toBeUndefined();
      if (isPassthrough(family, vendor)) {
        const own = await callFamily(fixture().direct[vendor], request);
        expect(view).toEqual(own);
      }
      switch (family) {
        case 'openai-chat':
          if (vendor === 'openai') {
            // https://platform.openai.com/docs/guides/structured-outputs#refusals: the message's
            // `refusal` holds the text, and the choice finishes `stop`.
            expect(view.finish).toBe('stop');
            expect(view.refusal).not.toBe('');
            expect(view.text).toBe('');
          } else expect(view.finish).toBe('content_filter');
          break;
        case 'openai-responses':
          if (vendor === 'openai') {
            // A `refusal` content part in a completed response.
            expect(view.finish).toBe('completed');
            expect(view.refusal).not.toBe('');
          } else {
            // https://platform.openai.com/docs/api-reference/responses/object#responses/object-incomplete_details
            expect(view.finish).toBe('incomplete');
            expect(view.incompleteReason).toBe('content_filter');
          }
          break;
        case 'anthropic-messages':
          // https://docs.claude.com/en/docs/test-and-evaluate/strengthen-guardrails/handle-streaming-refusals
          expect(view.finish).toBe('refusal');
          break;
        case 'gemini':
          if (vendor === 'gemini') expect(GEMINI_SAFETY_STOPS).toContain(view.finish);
          else expect(view.finish).toBe('SAFETY');
          break;
      }
    });
  });
});
