import { describe, expect, test } from 'vitest';
import {
  vertexModelPath,
  vertexOrigin,
  vertexPublisherOf,
} from '../../../src/providers/vertex/vertex-model-kind.js';

describe('vertexPublisherOf', () => {
  test.each([
    ['claude-sonnet-4@20250514', 'anthropic'],
    ['claude-3-5-haiku@20241022', 'anthropic'],
    ['gemini-2.5-pro', 'google'],
    ['gemini-2.0-flash-001', 'google'],
    ['my-claude-tune', 'google'],
  ])('%s is published by %s', (model, publisher) => {
    expect(vertexPublisherOf(model)).toBe(publisher);
  });
});

describe('vertexModelPath', () => {
  test('a Claude model keeps its @version, as @anthropic-ai/vertex-sdk sends it', () => {
    expect(
      vertexModelPath({
        project: 'fake-project',
        region: 'us-east5',
        upstreamModel: 'claude-sonnet-4@20250514',
        method: 'streamRawPredict',
      }),
    ).toBe(
      '/v1/projects/fake-project/locations/us-east5/publishers/anthropic/models/claude-sonnet-4@20250514:streamRawPredict',
    );
  });

  test('a Gemini model, with a method that carries its query', () => {
    expect(
      vertexModelPath({
        project: 'fake-project',
        region: 'global',
        upstreamModel: 'gemini-2.5-pro',
        method: 'streamGenerateContent?alt=sse',
      }),
    ).toBe(
      '/v1/projects/fake-project/locations/global/publishers/google/models/gemini-2.5-pro:streamGenerateContent?alt=sse',
    );
  });

  test('a segment cannot leave its place: / ? # : and spaces are encoded', () => {
    expect(
      vertexModelPath({
        project: 'a/b',
        region: 'us-central1',
        upstreamModel: 'gemini x/../y?z#w:v',
        method: 'generateContent',
      }),
    ).toBe(
      '/v1/projects/a%2Fb/locations/us-central1/publishers/google/models/gemini%20x%2F..%2Fy%3Fz%23w%3Av:generateContent',
    );
  });
});

describe('vertexOrigin', () => {
  test.each([
    ['us-central1', 'https://us-central1-aiplatform.googleapis.com'],
    ['europe-west4', 'https://europe-west4-aiplatform.googleapis.com'],
    ['global', 'https://aiplatform.googleapis.com'],
    ['us', 'https://aiplatform.us.rep.googleapis.com'],
    ['eu', 'https://aiplatform.eu.rep.googleapis.com'],
  ])('%s -> %s', (region, origin) => {
    expect(vertexOrigin(region)).toBe(origin);
  });

  test.each(['', 'evil.com/x', 'us-central1.attacker.net', 'US-CENTRAL1', 'a b'])(
    'refuses %j: a region becomes part of a host name',
    (region) => {
      expect(() => vertexOrigin(region)).toThrow(/Invalid Vertex AI region/);
    },
  );
});
