import { expect, test } from 'vitest';
import { send } from '../helpers/client-request.js';
import { seriesOf, valueOf, type Family } from '../helpers/prometheus-text.js';
import { addBackupChannel, startRelayFixture } from '../helpers/relay-fixture.js';
import { scrapeMetrics } from '../helpers/scrape-metrics.js';

/** A usage log row as `GET /api/logs` shows it. */
interface LogRow {
  model: string;
  prompt_tokens: number;
  completion_tokens: number;
  cached_tokens: number;
  cache_write_tokens: number;
  reasoning_tokens: number;
  cost: number;
}

const hi = [{ role: 'user', content: 'hi' }];

test('after a mix of requests, every counter is exactly what was billed and answered', async () => {
  const fx = await startRelayFixture();
  const { backup, backupId } = await addBackupChannel(fx);
  try {
    const primary = String(fx.channelId);
    const secondary = String(backupId);
    await fx.gw.admin('PATCH', `/channels/${fx.channelId}`, {
      models: ['gpt-4o', 'gpt-4o-mini', 'unpriced-model'],
    });
    const limited = await fx.gw.admin<{ key: string }>('POST', '/keys', { user_id: fx.userId, rpm: 1 });
    const chat = async (body: Record<string, unknown>, key = fx.key) =>
      (
        await send(fx.gw.origin, '/v1/chat/completions', {
          method: 'POST',
          headers: { authorization: `Bearer ${key}` },
          body,
        })
      ).status;
    const messages = async (body: Record<string, unknown>) =>
      (
        await send(fx.gw.origin, '/v1/messages', {
          method: 'POST',
          headers: { 'x-api-key': fx.key, 'anthropic-version': '2023-06-01' },
          body: { max_tokens: 64, messages: hi, ...body },
        })
      ).status;

    // Chat, streamed chat (usage asked for and not), and Anthropic clients converted to OpenAI.
    expect(await chat({ model: 'gpt-4o', messages: hi })).toBe(200);
    expect(
      await chat({ model: 'gpt-4o', messages: hi, stream: true, stream_options: { include_usage: true } }),
    ).toBe(200);
    expect(await chat({ model: 'gpt-4o-mini', messages: hi, stream: true })).toBe(200);
    expect(await messages({ model: 'gpt-4o-mini' })).toBe(200);
    expect(await messages({ model: 'gpt-4o', stream: true })).toBe(200);
    // The upstream refuses one; a model without a price and one nobody serves are refused.
    fx.upstream.script({ type: 'error', status: 400 });
    expect(await chat({ model: 'gpt-4o', messages: hi })).toBe(400);
    expect(await chat({ model: 'unpriced-model', messages: hi })).toBe(403);
    expect(await chat({ model: 'attacker-chosen-label', messages: hi })).toBe(503);
    // A virtual model names itself as the requested model, served by its target.
    await fx.gw.admin('POST', '/virtual-models', { name: 'mini-alias', targets: [{ model: 'gpt-4o-mini' }] });
    expect(await chat({ model: 'mini-alias', messages: hi })).toBe(200);
    // A key allowed one request a minute.
    expect(await chat({ model: 'gpt-4o-mini', messages: hi }, limited.body.key)).toBe(200);
    expect(await chat({ model: 'gpt-4o-mini', messages: hi }, limited.body.key)).toBe(429);
    // A 500 fails over to the backup channel.
    fx.upstream.script({ type: 'error', status: 500 });
    expect(await chat({ model: 'gpt-4o', messages: hi })).toBe(200);

    const logs = (await fx.logs()) as LogRow[];
    const metrics = await scrapeMetrics(fx.gw.origin);

    const requests = (endpoint: string, model: string, channel: string, status: string, requested = model) =>
      valueOf(metrics, 'gateway_requests_total', {
        endpoint,
        model,
        requested_model: requested,
        channel,
        status,
      });
    expect(requests('chat-completions', 'gpt-4o', primary, '200')).toBe(2);
    expect(requests('chat-completions', 'gpt-4o-mini', primary, '200')).toBe(2);
    expect(requests('chat-completions', 'gpt-4o-mini', primary, '200', 'mini-alias')).toBe(1);
    expect(requests('messages', 'gpt-4o-mini', primary, '200')).toBe(1);
    expect(requests('messages', 'gpt-4o', primary, '200')).toBe(1);
    expect(requests('chat-completions', 'gpt-4o', primary, '400')).toBe(1);
    expect(requests('chat-completions', 'other', 'none', '403')).toBe(1);
    expect(requests('chat-completions', 'other', 'none', '503')).toBe(1);
    expect(requests('chat-completions', 'gpt-4o-mini', 'none', '429')).toBe(1);
    expect(requests('chat-completions', 'gpt-4o', secondary, '200')).toBe(1);
    expect(total(metrics, 'gateway_requests_total')).toBe(12);
    expect(total(metrics, 'gateway_request_duration_seconds_count')).toBe(12);
    expect(
      valueOf(metrics, 'gateway_request_duration_seconds_count', { endpoint: 'messages', stream: 'true' }),
    ).toBe(1);

    // Tokens by kind and cost per model: the sums of the usage log, to the nano-dollar.
    for (const model of ['gpt-4o', 'gpt-4o-mini']) {
      const rows = logs.filter((row) => row.model === model);
      const sum = (field: keyof Omit<LogRow, 'model'>) => rows.reduce((acc, row) => acc + row[field], 0);
      const tokens = (kind: string) => valueOf(metrics, 'gateway_tokens_total', { model, kind });
      expect(sum('prompt_tokens')).toBeGreaterThan(0);
      expect(sum('cached_tokens')).toBeGreaterThan(0);
      expect(tokens('input')).toBe(sum('prompt_tokens'));
      expect(tokens('cached')).toBe(sum('cached_tokens'));
      expect(tokens('cache_write')).toBe(sum('cache_write_tokens'));
      expect(tokens('output')).toBe(sum('completion_tokens'));
      expect(tokens('reasoning')).toBe(sum('reasoning_tokens'));
      const cost = valueOf(metrics, 'gateway_cost_usd_total', { model }) ?? Number.NaN;
      expect(Math.abs(cost - sum('cost'))).toBeLessThan(1e-9);
      expect(sum('cost')).toBeGreaterThan(0);
    }
    expect(seriesOf(metrics, 'gateway_tokens_total').map((sample) => sample.labels.model)).not.toContain(
      'other',
    );

    const attempts = (channel: string, outcome: string) =>
      valueOf(metrics, 'gateway_upstream_attempts_total', { channel, outcome });
    expect(attempts(primary, 'success')).toBe(7);
    expect(attempts(primary, 'client_error')).toBe(1);
    expect(attempts(primary, 'server_error')).toBe(1);
    expect(attempts(secondary, 'success')).toBe(1);
    expect(total(metrics, 'gateway_upstream_attempts_total')).toBe(10);
    expect(valueOf(metrics, 'gateway_upstream_first_byte_seconds_count', { channel: primary })).toBe(7);
    expect(valueOf(metrics, 'gateway_upstream_first_byte_seconds_count', { channel: secondary })).toBe(1);
    expect(valueOf(metrics, 'gateway_rate_limited_total', { limit: 'rpm' })).toBe(1);
    expect(valueOf(metrics, 'gateway_open_streams')).toBe(0);
    expect(valueOf(metrics, 'gateway_usage_writer_queue')).toBe(0);

    // Health after the 500: that pair cools down, the others stay healthy; unpriced models are `other`.
    const state = (channel: string, model: string, name: string) =>
      valueOf(metrics, 'gateway_channel_model_state', { channel, model, state: name });
    expect(state(primary, 'gpt-4o', 'cooling_down')).toBe(1);
    expect(state(primary, 'gpt-4o', 'healthy')).toBe(0);
    expect(state(primary, 'gpt-4o-mini', 'healthy')).toBe(1);
    expect(state(primary, 'other', 'healthy')).toBe(1);
    expect(state(secondary, 'gpt-4o', 'healthy')).toBe(1);

    // The process's default metrics are there; no label carries what a client made up.
    expect(valueOf(metrics, 'process_cpu_user_seconds_total')).toBeGreaterThan(0);
    expect(metrics.get('nodejs_heap_size_used_bytes')?.type).toBe('gauge');
    const labelValues = [...metrics.values()].flatMap((family) =>
      family.samples.flatMap((sample) => Object.values(sample.labels)),
    );
    expect(labelValues.some((value) => value.includes('attacker') || value === 'unpriced-model')).toBe(false);
  } finally {
    await fx.close();
    await backup.close();
  }
});

test('a stream open now shows in gateway_open_streams until it ends', async () => {
  const fx = await startRelayFixture();
  try {
    fx.upstream.script({ type: 'reply', chunkDelayMs: 150 });
    const streaming = fetch(`${fx.gw.origin}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${fx.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-4o', messages: hi, stream: true }),
    });
    const response = await streaming;
    expect(valueOf(await scrapeMetrics(fx.gw.origin), 'gateway_open_streams')).toBe(1);
    await response.text();
    await fx.logs();
    expect(valueOf(await scrapeMetrics(fx.gw.origin), 'gateway_open_streams')).toBe(0);
  } finally {
    await fx.close();
  }
});

/** The sum of every series of a sample name. */
function total(metrics: Map<string, Family>, name: string): number {
  return seriesOf(metrics, name).reduce((sum, sample) => sum + sample.value, 0);
}
