import { expect, test } from 'vitest';
import { startRelayFixture } from '../helpers/relay-fixture.js';

const body = JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] });

test('rpm: over the limit gives 429 rate_limit_exceeded with Retry-After, before anything is charged', async () => {
  const fx = await startRelayFixture({ key: { rpm: 2 } });
  try {
    const call = () =>
      fetch(`${fx.gw.origin}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${fx.key}`, 'content-type': 'application/json' },
        body,
      });
    expect((await call()).status).toBe(200);
    expect((await call()).status).toBe(200);
    const limited = await call();
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    const error = ((await limited.json()) as { error: { code: string; type: string; message: string } })
      .error;
    expect(error.code).toBe('rate_limit_exceeded');
    expect(error.type).toBe('gateway_api_error');
    expect(error.message).toMatch(
      /^Rate limit exceeded: 2 requests per minute, retry after \d+ seconds \(request id/,
    );
    expect(fx.upstream.requests).toHaveLength(2);
  } finally {
    await fx.close();
  }
});

test('tpm: once the tokens used this minute reach the limit, requests wait', async () => {
  const fx = await startRelayFixture({ key: { tpm: 40 } });
  try {
    const call = () =>
      fetch(`${fx.gw.origin}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${fx.key}`, 'content-type': 'application/json' },
        body,
      });
    expect((await call()).status).toBe(200); // 32 tokens
    await fx.logs();
    expect((await call()).status).toBe(200); // 64 tokens
    await fx.logs();
    const limited = await call();
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).not.toBeNull();
  } finally {
    await fx.close();
  }
});

test('a channel whose every model keeps failing is auto-disabled, leaves the model list, and returns once its probe answers', async () => {
  const fx = await startRelayFixture();
  try {
    await fx.gw.admin('PATCH', '/settings', {
      channel_failure_threshold: 2,
      channel_probe_interval_s: 1,
      retry_times: 0,
    });
    fx.upstream.script({ type: 'error', status: 500 }, { type: 'error', status: 502 });
    const call = (model = 'gpt-4o') =>
      fx.openai.chat.completions.create({ model, messages: [{ role: 'user', content: 'hi' }] });
    await expect(call()).rejects.toMatchObject({ status: 500 });
    // the only candidate cools down, yet is tried rather than answering 503
    await expect(call()).rejects.toMatchObject({ status: 502 });
    // one sick model never takes the channel out: its other model answers
    expect((await call('gpt-4o-mini')).choices[0]?.message.content).toBe('Hello from fake OpenAI.');
    expect((await fx.gw.admin('GET', `/channels/${fx.channelId}`)).body.status).toBe('enabled');
    fx.upstream.script({ type: 'error', status: 503 }, { type: 'error', status: 500 });
    await expect(call('gpt-4o-mini')).rejects.toMatchObject({ status: 503 });
    await expect(call('gpt-4o-mini')).rejects.toMatchObject({ status: 500 });
    const status = async () => (await fx.gw.admin('GET', `/channels/${fx.channelId}`)).body.status;
    for (let waited = 0; waited < 1000 && (await status()) !== 'auto_disabled'; waited += 20) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(await status()).toBe('auto_disabled');
    expect((await fx.openai.models.list()).data).toEqual([]);
    await expect(call()).rejects.toMatchObject({ status: 503 });

    // the probe (a one-token request) now succeeds and the channel comes back
    for (let waited = 0; waited < 4000 && (await status()) !== 'enabled'; waited += 50) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(await status()).toBe('enabled');
    expect((await call()).choices[0]?.message.content).toBe('Hello from fake OpenAI.');
  } finally {
    await fx.close();
  }
});
