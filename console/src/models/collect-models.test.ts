import { describe, expect, it } from 'vitest';
import type { Channel, ModelMetadata, Price } from '../api/types';
import { collectModels } from './collect-models';

function channel(fields: Partial<Channel> & Pick<Channel, 'id' | 'type' | 'models'>): Channel {
  return {
    name: `channel ${fields.id}`,
    base_url: null,
    keys: [],
    model_mapping: {},
    groups: ['default'],
    priority: 0,
    weight: 1,
    endpoints: null,
    status: 'enabled',
    config: {},
    created_at: 0,
    managed: 'api',
    ...fields,
  };
}

const price: Price = {
  model: 'gpt-4o',
  input: 2.5,
  output: 10,
  cached_input: null,
  cache_write: null,
  per_request: null,
  input_audio: null,
  output_audio: null,
  per_minute: null,
  per_million_characters: null,
  managed: 'api',
};

describe('collectModels', () => {
  it('lists every served or priced model once, with its channels, endpoint types and price', () => {
    const models = collectModels({
      channels: [
        channel({ id: 1, type: 'openai', models: ['gpt-4o'] }),
        channel({ id: 2, type: 'anthropic', models: ['gpt-4o', 'claude-sonnet-4'] }),
        channel({ id: 3, type: 'openai', models: ['text-embedding-3-small'], endpoints: ['embeddings'] }),
      ],
      prices: [price, { ...price, model: 'old-model' }],
    });
    expect(models.map((entry) => entry.model)).toEqual([
      'claude-sonnet-4',
      'gpt-4o',
      'old-model',
      'text-embedding-3-small',
    ]);
    const gpt = models[1];
    expect(gpt?.channels.map((served) => served.id)).toEqual([1, 2]);
    expect(gpt?.endpointTypes).toEqual(['openai', 'openai-response', 'anthropic']);
    expect(gpt?.price).toBe(price);
    expect(models[0]?.price).toBeUndefined();
    expect(models[2]?.channels).toEqual([]);
    expect(models[3]?.endpointTypes).toEqual(['embeddings']);
  });

  it('derives Vertex endpoint types from the upstream model the public one maps to', () => {
    const [claude, gemini] = collectModels({
      channels: [
        channel({
          id: 4,
          type: 'vertex',
          models: ['claude', 'gemini-2.5-pro'],
          model_mapping: { claude: 'claude-sonnet-4@20250514' },
        }),
      ],
      prices: [],
    });
    expect(claude?.endpointTypes).toEqual(['anthropic', 'openai']);
    expect(gemini?.endpointTypes).toEqual(['gemini', 'openai']);
  });

  it('attaches each model’s metadata, and lists a model only metadata names', () => {
    const known: ModelMetadata = {
      model: 'gpt-4o',
      context_window: 128000,
      max_output_tokens: 16384,
      capabilities: ['tools', 'vision'],
      managed: 'api',
    };
    const models = collectModels({
      channels: [channel({ id: 1, type: 'openai', models: ['gpt-4o', 'o3'] })],
      prices: [],
      metadata: [known, { ...known, model: 'retired/model' }],
    });
    expect(models.map((entry) => [entry.model, entry.metadata?.model])).toEqual([
      ['gpt-4o', 'gpt-4o'],
      ['o3', undefined],
      ['retired/model', 'retired/model'],
    ]);
    expect(models[0]?.metadata).toBe(known);
    expect(models[2]?.channels).toEqual([]);
  });
});
