import { describe, expect, test } from 'vitest';
import type { RecordedRequest } from '../fakes/fake-upstream.js';
import {
  callFamily,
  FAMILIES,
  MODELS,
  upstreamFamily,
  useFidelityGateway,
  VENDORS,
} from './extras-clients.js';

/**
 * Structured output: every client family asks for a JSON schema in its own form, and every upstream
 * gets the same schema in its own form (OpenAI chat `response_format`, Responses `text.format`,
 * Anthropic `output_config.format`, Gemini `responseMimeType` + `responseJsonSchema`); the answer's
 * JSON text reaches the client unchanged.
 */
const SCHEMA = {
  type: 'object',
  properties: {
    city: { type: 'string', description: 'City name' },
    population: { type: 'integer' },
    landmarks: { type: 'array', items: { type: 'string' } },
  },
  required: ['city', 'population', 'landmarks'],
  additionalProperties: false,
};
const ANSWER = '{"city":"Paris","population":2102650,"landmarks":["Eiffel Tower","Louvre"]}';

const fixture = useFidelityGateway();

describe.each(FAMILIES)('%s client', (family) => {
  describe.each(VENDORS)('to %s upstream', (vendor) => {
    test.each([false, true])('stream %s', async (stream) => {
      const fake = fixture().fakes[vendor];
      fake.scriptAlways({ type: 'reply', text: ANSWER });

      const view = await callFamily(fixture().clients, {
        family,
        model: MODELS[vendor],
        stream,
        schema: { name: 'city_facts', schema: SCHEMA },
      });

      const [sent, ...more] = fake.requests;
      expect(more).toHaveLength(0);
      expect(sent!.refused).toBeUndefined();
      const arrived = upstreamSchema(sent!);
      expect(arrived?.schema).toEqual(SCHEMA);
      const body = sent!.body as Record<string, any>;
      switch (upstreamFamily(family, vendor)) {
        case 'openai-chat':
        case 'openai-responses':
          // https://platform.openai.com/docs/guides/structured-outputs: a name is required; the
          // client's own name is kept where it gave one. No client here asked for strict mode.
          expect(arrived?.name).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
          if (family === 'openai-chat' || family === 'openai-responses')
            expect(arrived?.name).toBe('city_facts');
          expect(arrived?.strict).not.toBe(true);
          break;
        case 'anthropic-messages':
          // https://docs.claude.com/en/docs/build-with-claude/structured-outputs (GA form, as in the SDK's
          // `OutputConfig`); the beta `output_format` must not be sent beside it.
          expect(body.output_config.format).toEqual({ type: 'json_schema', schema: SCHEMA });
          expect(body.output_format).toBeUndefined();
          break;
        case 'gemini':
          // https://ai.google.dev/gemini-api/docs/structured-output: JSON Schema goes in
          // `responseJsonSchema`, never also in the OpenAPI-subset `responseSchema`.
          expect(arrived?.mimeType).toBe('application/json');
          expect(body.generationConfig.responseSchema).toBeUndefined();
          break;
      }

      expect(view.text).toBe(ANSWER);
      expect(JSON.parse(view.text)).toEqual(JSON.parse(ANSWER));
    });
  });
});

type Json = Record<string, any>;

/** The structured-output request as it reached an upstream, in that upstream's own form. */
interface UpstreamSchema {
  schema: unknown;
  /** OpenAI's schema name; the other vendors have none. */
  name?: string;
  strict?: boolean | null;
  /** Gemini's `responseMimeType`. */
  mimeType?: string;
}

function upstreamSchema(request: RecordedRequest): UpstreamSchema | undefined {
  const body = (request.body ?? {}) as Json;
  if (request.path.startsWith('/v1beta/models/')) {
    const config: Json = body.generationConfig ?? {};
    if (config.responseJsonSchema === undefined) return undefined;
    return { schema: config.responseJsonSchema, mimeType: config.responseMimeType };
  }
  if (request.path === '/v1/messages') {
    const format: Json | undefined = body.output_config?.format;
    return format?.type === 'json_schema' ? { schema: format.schema } : undefined;
  }
  if (request.path === '/v1/responses') {
    const format: Json | undefined = body.text?.format;
    if (format?.type !== 'json_schema') return undefined;
    return { schema: format.schema, name: format.name, ...('strict' in format && { strict: format.strict }) };
  }
  const format: Json | undefined = body.response_format;
  if (format?.type !== 'json_schema') return undefined;
  const { schema, name } = format.json_schema ?? {};
  return {
    schema,
    name,
    ...('strict' in (format.json_schema ?? {}) && { strict: format.json_schema.strict }),
  };
}
