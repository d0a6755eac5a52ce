import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateKey } from '../../src/auth/key-format.js';
import { usdToNano } from '../../src/billing/money.js';
import {
  bearer,
  expectAnthropicError,
  expectOpenAIError,
  send,
  type ClientRequest,
  type ClientResponse,
} from '../helpers/client-request.js';
import {
  deleteKey,
  seedChannel,
  seedKey,
  seedPrice,
  seedUser,
  seedUserWithKey,
  updateKey,
  updateSettings,
  updateUser,
} from '../helpers/seed.js';
import { startTestGateway, type TestGateway } from '../helpers/start-test-gateway.js';

/** Client-api section 5 and 2.5: key forms, key states, channel pins, Model Limits, IP allow lists. */

let gw: TestGateway;
let servingChannelId: number;
let otherChannelId: number;

beforeAll(async () => {
  gw = await startTestGateway();
  servingChannelId = (await seedChannel(gw, { type: 'openai', models: ['gpt-4o', 'gpt-4o-mini'] })).id;
  otherChannelId = (await seedChannel(gw, { type: 'anthropic', models: ['claude-sonnet-4-5'] })).id;
  await seedPrice(gw, 'gpt-4o', 2.5);
  await seedPrice(gw, 'gpt-4o-mini', 0.15);
  await seedPrice(gw, 'claude-sonnet-4-5', 3);
});

afterAll(async () => {
  await gw?.close();
});

const call = (path: string, options?: ClientRequest) => send(gw.origin, path, options);

/**
 * A request per endpoint kind, with what an accepted key gets back. None reaches an upstream:
 * each stops at a check after authentication, so a rejected key shows as a 401 instead.
 */
interface Probe {
  method: 'GET' | 'POST';
  path: string;
  body?: unknown;
  expectAccepted(response: ClientResponse): void;
}

const listedIds = ['gpt-4o', 'gpt-4o-mini', 'claude-sonnet-4-5'].sort();

const probes = {
  chatCompletions: {
    method: 'POST',
    path: '/v1/chat/completions',
    body: { model: 'gpt-4o' },
    expectAccepted: (response) =>
      expectOpenAIError(response, {
        status: 400,
        message: 'field messages is required',
        code: 'invalid_request',
      }),
  },
  responses: {
    method: 'POST',
    path: '/v1/responses',
    // No channel serves it: the answer comes from routing, whatever the relay can do.
    body: { model: 'no-such-model', input: 'hi' },
    expectAccepted: (response) =>
      expectOpenAIError(response, {
        status: 503,
        message: 'No available channel for model no-such-model under group default (distributor)',
        code: 'model_not_found',
      }),
  },
  messages: {
    method: 'POST',
    path: '/v1/messages',
    body: { model: 'claude-sonnet-4-5', max_tokens: 16 },
    expectAccepted: (response) =>
      expectAnthropicError(response, {
        status: 400,
        type: 'invalid_request_error',
        message: 'field messages is required',
      }),
  },
  generateContent: {
    method: 'POST',
    path: '/v1beta/models/gpt-4o:generateContent',
    body: {},
    expectAccepted: (response) =>
      expectOpenAIError(response, {
        status: 400,
        message: 'field contents is required',
        code: 'invalid_request',
      }),
  },
  v1Models: {
    method: 'GET',
    path: '/v1/models',
    expectAccepted: (response) => {
      expect(response.status).toBe(200);
      const ids = response.body.data
        ? response.body.data.map((model: { id: string }) => model.id)
        : response.body.models.map((model: { name: string }) => model.name.replace('models/', ''));
      expect(ids).toEqual(listedIds);
    },
  },
  v1betaModels: {
    method: 'GET',
    path: '/v1beta/models',
    expectAccepted: (response) => {
      expect(response.status).toBe(200);
      expect(response.body.models.map((model: { name: string }) => model.name)).toEqual(
        listedIds.map((id) => `models/${id}`),
      );
    },
  },
  v1betaOpenAIModels: {
    method: 'GET',
    path: '/v1beta/openai/models',
    expectAccepted: (response) => {
      expect(response.status).toBe(200);
      expect(response.body.data.map((model: { id: string }) => model.id)).toEqual(listedIds);
    },
  },
} satisfies Record<string, Probe>;

type ProbeName = keyof typeof probes;
const probeNames = Object.keys(probes) as ProbeName[];

type KeyForm = 'bearer' | 'bare-authorization' | 'x-api-key' | 'x-goog-api-key' | 'query';

function withKey(
  form: KeyForm,
  key: string,
  path: string,
): { path: string; headers: Record<string, string> } {
  switch (form) {
    case 'bearer':
      return { path, headers: { authorization: `Bearer ${key}` } };
    case 'bare-authorization':
      return { path, headers: { authorization: key } };
    case 'x-api-key':
      return { path, headers: { 'x-api-key': key } };
    case 'x-goog-api-key':
      return { path, headers: { 'x-goog-api-key': key } };
    case 'query':
      return { path: `${path}?key=${encodeURIComponent(key)}`, headers: {} };
  }
}

function probe(name: ProbeName, form: KeyForm, key: string, extraHeaders: Record<string, string> = {}) {
  const { method, path, ...rest } = probes[name];
  const target = withKey(form, key, path);
  return call(target.path, {
    method,
    headers: { ...target.headers, ...extraHeaders },
    ...('body' in rest && { body: rest.body }),
  });
}

/** Where each key form works (client-api section 5); elsewhere it counts as no key. */
const acceptedPaths: Record<KeyForm, readonly ProbeName[]> = {
  bearer: probeNames,
  'bare-authorization': probeNames,
  'x-api-key': ['messages', 'v1Models'],
  'x-goog-api-key': ['v1Models', 'v1betaModels', 'v1betaOpenAIModels', 'generateContent'],
  query: ['v1Models', 'v1betaModels', 'v1betaOpenAIModels', 'generateContent'],
};

function expectInvalidToken(response: ClientResponse, language: 'en' | 'zh-CN' = 'en'): void {
  expectOpenAIError(response, { status: 401, message: language === 'en' ? 'Invalid token' : '无效的令牌' });
}

describe('key forms and the paths that accept them', () => {
  let key: string;
  beforeAll(async () => {
    ({ key } = await seedUserWithKey(gw));
  });

  const forms = Object.keys(acceptedPaths) as KeyForm[];
  for (const form of forms) {
    for (const name of probeNames) {
      const accepted = acceptedPaths[form].includes(name);
      it(`${form} on ${probes[name].method} ${probes[name].path}: ${accepted ? 'accepted' : '401 Invalid token'}`, async () => {
        const response = await probe(name, form, key);
        if (accepted) probes[name].expectAccepted(response);
        else expectInvalidToken(response);
      });
    }
  }

  for (const form of forms) {
    it(`${form}: the sk- prefix is optional`, async () => {
      const name = acceptedPaths[form][0] as ProbeName;
      expect(key.startsWith('sk-')).toBe(true);
      probes[name].expectAccepted(await probe(name, form, key.slice(3)));
      probes[name].expectAccepted(await probe(name, form, key));
    });
  }

  it('Bearer is case-insensitive and tolerates surrounding spaces', async () => {
    probes.chatCompletions.expectAccepted(
      await call('/v1/chat/completions', {
        method: 'POST',
        headers: { authorization: `bearer   ${key} ` },
        body: { model: 'gpt-4o' },
      }),
    );
  });

  it('a wrong Authorization header is not rescued by a right key in x-api-key', async () => {
    expectInvalidToken(
      await call('/v1/messages', {
        method: 'POST',
        headers: { authorization: 'Bearer sk-wrong', 'x-api-key': key },
        body: probes.messages.body,
      }),
    );
  });
});

describe('unusable keys all give the identical Invalid token', () => {
  const chat = (headers: Record<string, string>) =>
    call('/v1/chat/completions', { method: 'POST', headers, body: { model: 'gpt-4o', messages: [] } });

  /** The body with the request id taken out, to compare errors of different requests. */
  const withoutRequestId = (response: ClientResponse) => ({
    status: response.status,
    body: JSON.parse(response.text.replace(response.requestId, '<id>')),
    contentType: response.headers.get('content-type'),
  });

  it('missing, wrong, disabled, expired, exhausted key and disabled user', async () => {
    const disabled = await seedUserWithKey(gw, { key: { status: 'disabled' } });
    const expired = await seedUserWithKey(gw, { key: { expiresAt: Math.floor(Date.now() / 1000) - 1 } });
    const exhausted = await seedUserWithKey(gw, { key: { unlimitedQuota: false, quota: 0 } });
    const ofDisabledUser = await seedUserWithKey(gw, { user: { status: 'disabled' } });

    const responses = {
      missing: await chat({}),
      emptyBearer: await chat({ authorization: 'Bearer ' }),
      wrong: await chat(bearer(generateKey())),
      disabled: await chat(bearer(disabled.key)),
      expired: await chat(bearer(expired.key)),
      exhausted: await chat(bearer(exhausted.key)),
      disabledUser: await chat(bearer(ofDisabledUser.key)),
    };
    for (const response of Object.values(responses)) expectInvalidToken(response);
    const reference = withoutRequestId(responses.missing);
    for (const response of Object.values(responses)) expect(withoutRequestId(response)).toEqual(reference);
  });

  it('a capped key with quota left and an unexpired key are accepted', async () => {
    const capped = await seedUserWithKey(gw, { key: { unlimitedQuota: false, quota: usdToNano(1) } });
    const later = await seedUserWithKey(gw, { key: { expiresAt: Math.floor(Date.now() / 1000) + 3600 } });
    probes.chatCompletions.expectAccepted(await probe('chatCompletions', 'bearer', capped.key));
    probes.chatCompletions.expectAccepted(await probe('chatCompletions', 'bearer', later.key));
  });

  it('is the same on the model lists and in Chinese', async () => {
    expectInvalidToken(await call('/v1/models'));
    expectInvalidToken(await call('/v1beta/models', { headers: { 'x-goog-api-key': 'sk-nothing' } }));
    expectInvalidToken(
      await call('/v1/models', { headers: { 'accept-language': 'zh-CN,zh;q=0.9' } }),
      'zh-CN',
    );
  });
});

describe('channel pin suffix', () => {
  it('a regular user gets 403 普通用户不支持指定渠道', async () => {
    const { key } = await seedUserWithKey(gw);
    for (const suffixed of [`${key}-${servingChannelId}`, `${key.slice(3)}-12`]) {
      expectOpenAIError(await probe('chatCompletions', 'bearer', suffixed), {
        status: 403,
        message: '普通用户不支持指定渠道',
      });
    }
    expectOpenAIError(await probe('v1Models', 'x-api-key', `${key}-1`), {
      status: 403,
      message: '普通用户不支持指定渠道',
    });
  });

  it('a suffix on an unknown key is still Invalid token', async () => {
    expectInvalidToken(await probe('chatCompletions', 'bearer', `${generateKey()}-${servingChannelId}`));
  });

  it("an admin's key is accepted and pins that channel id", async () => {
    const { key } = await seedUserWithKey(gw, { user: { role: 'admin' } });
    // Pinned to the channel serving gpt-4o: routing succeeds and the body check is reached.
    probes.chatCompletions.expectAccepted(
      await probe('chatCompletions', 'bearer', `${key}-${servingChannelId}`),
    );
    // Pinned to a channel without gpt-4o, or to none at all: no channel, though another serves it.
    for (const channelId of [otherChannelId, 987654]) {
      expectOpenAIError(await probe('chatCompletions', 'bearer', `${key}-${channelId}`), {
        status: 503,
        message: 'No available channel for model gpt-4o under group default (distributor)',
        code: 'model_not_found',
      });
    }
    // The pinned channel serves claude-sonnet-4-5 through /v1/messages.
    probes.messages.expectAccepted(await probe('messages', 'x-api-key', `${key}-${otherChannelId}`));
  });
});

describe('Model Limits', () => {
  it('rejects models outside the list with 403, in the caller language', async () => {
    const { key } = await seedUserWithKey(gw, { key: { modelLimits: ['gpt-4o'] } });
    probes.chatCompletions.expectAccepted(await probe('chatCompletions', 'bearer', key));
    const denied = (model: string, headers: Record<string, string> = {}) =>
      call('/v1/chat/completions', {
        method: 'POST',
        headers: { ...bearer(key), ...headers },
        body: { model },
      });

    expectOpenAIError(await denied('gpt-4o-mini'), {
      status: 403,
      message: 'This token has no access to model gpt-4o-mini',
    });
    expectOpenAIError(await denied('no-such-model'), {
      status: 403,
      message: 'This token has no access to model no-such-model',
    });
    expectOpenAIError(await denied('gpt-4o-mini', { 'accept-language': 'zh-CN,zh;q=0.9' }), {
      status: 403,
      message: '该令牌无权访问模型 gpt-4o-mini',
    });
    // The modifier is stripped before the check, both ways.
    expectOpenAIError(await denied('gpt-4o-mini@high'), {
      status: 403,
      message: 'This token has no access to model gpt-4o-mini',
    });
    probes.chatCompletions.expectAccepted(
      await call('/v1/chat/completions', {
        method: 'POST',
        headers: bearer(key),
        body: { model: 'gpt-4o@high' },
      }),
    );
  });

  it('applies to the model of the Gemini path and to /v1/messages', async () => {
    const { key } = await seedUserWithKey(gw, { key: { modelLimits: ['claude-sonnet-4-5'] } });
    expectOpenAIError(
      await call('/v1beta/models/gpt-4o:generateContent', {
        method: 'POST',
        headers: { 'x-goog-api-key': key },
        body: {},
      }),
      { status: 403, message: 'This token has no access to model gpt-4o' },
    );
    expectOpenAIError(
      await call('/v1/messages', {
        method: 'POST',
        headers: { 'x-api-key': key, 'anthropic-version': '2023-06-01' },
        body: { model: 'gpt-4o', max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] },
      }),
      { status: 403, message: 'This token has no access to model gpt-4o' },
    );
    probes.messages.expectAccepted(await probe('messages', 'x-api-key', key));
  });
});

describe('IP allow list', () => {
  const denied = { status: 403, message: '您的 IP 不在令牌允许访问的列表中', code: 'access_denied' };

  async function keyAllowing(ipAllowList: string[]) {
    return (await seedUserWithKey(gw, { key: { ipAllowList } })).key;
  }

  it('accepts listed IPv4 addresses and ranges and rejects others, on every path', async () => {
    for (const list of [['127.0.0.1'], ['127.0.0.0/8'], ['10.0.0.1', '127.0.0.1/32'], ['::1', '127.0.0.1']]) {
      const key = await keyAllowing(list);
      probes.chatCompletions.expectAccepted(await probe('chatCompletions', 'bearer', key));
    }
    for (const list of [['10.0.0.1'], ['10.0.0.0/8', '192.168.1.0/24'], ['::1'], ['127.0.0.2']]) {
      const key = await keyAllowing(list);
      expectOpenAIError(await probe('chatCompletions', 'bearer', key), denied);
      expectOpenAIError(await probe('v1Models', 'bearer', key), denied);
      expectOpenAIError(await probe('v1betaModels', 'x-goog-api-key', key), denied);
      expectOpenAIError(await probe('messages', 'x-api-key', key), denied);
    }
  });

  it('the message is Chinese whatever the language', async () => {
    const key = await keyAllowing(['10.0.0.1']);
    expectOpenAIError(await probe('chatCompletions', 'bearer', key, { 'accept-language': 'en-US' }), denied);
  });

  describe('over IPv6 from ::1', () => {
    let server: Server;
    let v6Origin: string;
    beforeAll(async () => {
      // A second listener on the IPv6 loopback in front of the same application.
      server = createServer((request, response) => gw.gateway.app.routing(request, response));
      await new Promise<void>((resolve) => server.listen(0, '::1', resolve));
      v6Origin = `http://[::1]:${(server.address() as AddressInfo).port}`;
    });
    afterAll(async () => {
      await new Promise((resolve) => server.close(resolve));
    });

    const chatFromV6 = (key: string) =>
      send(v6Origin, '/v1/chat/completions', {
        method: 'POST',
        headers: bearer(key),
        body: { model: 'gpt-4o' },
      });

    it('accepts IPv6 addresses and ranges that hold ::1, rejects others', async () => {
      for (const list of [['::1'], ['::1/128'], ['0:0:0:0:0:0:0:1'], ['::/64'], ['10.0.0.1', '::1']]) {
        probes.chatCompletions.expectAccepted(await chatFromV6(await keyAllowing(list)));
      }
      for (const list of [['::2'], ['2001:db8::/32'], ['127.0.0.1'], ['0.0.0.0/0']]) {
        expectOpenAIError(await chatFromV6(await keyAllowing(list)), denied);
      }
    });
  });

  describe('X-Forwarded-For', () => {
    const chatForwarded = (key: string, forwardedFor: string) =>
      call('/v1/chat/completions', {
        method: 'POST',
        headers: { ...bearer(key), 'x-forwarded-for': forwardedFor },
        body: { model: 'gpt-4o' },
      });

    it('is ignored when the socket peer is not a trusted proxy', async () => {
      expect(gw.gateway.services.settings.get().trusted_proxies).toEqual([]);
      expectOpenAIError(await chatForwarded(await keyAllowing(['203.0.113.7']), '203.0.113.7'), denied);
      probes.chatCompletions.expectAccepted(
        await chatForwarded(await keyAllowing(['127.0.0.1']), '203.0.113.7'),
      );
    });

    it('is believed when the peer is in trusted_proxies', async () => {
      await updateSettings(gw, { trusted_proxies: ['127.0.0.1/32'] });
      try {
        probes.chatCompletions.expectAccepted(
          await chatForwarded(await keyAllowing(['203.0.113.7']), '203.0.113.7'),
        );
        probes.chatCompletions.expectAccepted(
          await chatForwarded(await keyAllowing(['203.0.113.0/24']), '198.51.100.1, 203.0.113.7'),
        );
        probes.chatCompletions.expectAccepted(
          await chatForwarded(await keyAllowing(['2001:db8::/32']), '2001:db8::5'),
        );
        // The forwarded address replaces the peer's, so the peer's own address no longer matches.
        expectOpenAIError(await chatForwarded(await keyAllowing(['127.0.0.1']), '203.0.113.7'), denied);
        expectOpenAIError(await chatForwarded(await keyAllowing(['2001:db8::/32']), '2001:db9::5'), denied);
        // Only the hop the trusted proxy appended counts; an address the client put first does not.
        expectOpenAIError(
          await chatForwarded(await keyAllowing(['198.51.100.1']), '198.51.100.1, 203.0.113.7'),
          denied,
        );
      } finally {
        await updateSettings(gw, { trusted_proxies: [] });
      }
      expectOpenAIError(await chatForwarded(await keyAllowing(['203.0.113.7']), '203.0.113.7'), denied);
    });

    it('a trusted proxy list that does not hold the peer changes nothing', async () => {
      await updateSettings(gw, { trusted_proxies: ['10.0.0.0/8'] });
      try {
        expectOpenAIError(await chatForwarded(await keyAllowing(['203.0.113.7']), '203.0.113.7'), denied);
      } finally {
        await updateSettings(gw, { trusted_proxies: [] });
      }
    });
  });
});

describe('key cache: management changes are visible on the next request', () => {
  it('a created key works at once, even after it was refused', async () => {
    const user = await seedUser(gw);
    const key = generateKey();
    expectInvalidToken(await probe('chatCompletions', 'bearer', key));
    await seedKey(gw, user.id, { key });
    probes.chatCompletions.expectAccepted(await probe('chatCompletions', 'bearer', key));
  });

  it('disabling and enabling a key', async () => {
    const { key, record } = await seedUserWithKey(gw);
    probes.chatCompletions.expectAccepted(await probe('chatCompletions', 'bearer', key));
    await updateKey(gw, record.id, { status: 'disabled' });
    expectInvalidToken(await probe('chatCompletions', 'bearer', key));
    await updateKey(gw, record.id, { status: 'enabled' });
    probes.chatCompletions.expectAccepted(await probe('chatCompletions', 'bearer', key));
  });

  it('deleting a key', async () => {
    const { key, record } = await seedUserWithKey(gw);
    probes.v1Models.expectAccepted(await probe('v1Models', 'bearer', key));
    await deleteKey(gw, record.id);
    expectInvalidToken(await probe('v1Models', 'bearer', key));
  });

  it('disabling and enabling a user', async () => {
    const { key, user } = await seedUserWithKey(gw);
    probes.chatCompletions.expectAccepted(await probe('chatCompletions', 'bearer', key));
    await updateUser(gw, user.id, { status: 'disabled' });
    expectInvalidToken(await probe('chatCompletions', 'bearer', key));
    await updateUser(gw, user.id, { status: 'enabled' });
    probes.chatCompletions.expectAccepted(await probe('chatCompletions', 'bearer', key));
  });

  it('changing Model Limits and the IP allow list of a key', async () => {
    const { key, record } = await seedUserWithKey(gw);
    probes.chatCompletions.expectAccepted(await probe('chatCompletions', 'bearer', key));
    await updateKey(gw, record.id, { modelLimits: ['gpt-4o-mini'] });
    expectOpenAIError(await probe('chatCompletions', 'bearer', key), {
      status: 403,
      message: 'This token has no access to model gpt-4o',
    });
    await updateKey(gw, record.id, { modelLimits: null, ipAllowList: ['10.0.0.1'] });
    expectOpenAIError(await probe('chatCompletions', 'bearer', key), {
      status: 403,
      message: '您的 IP 不在令牌允许访问的列表中',
      code: 'access_denied',
    });
    await updateKey(gw, record.id, { ipAllowList: null });
    probes.chatCompletions.expectAccepted(await probe('chatCompletions', 'bearer', key));
  });

  it("a key's quota running out and an expiry passing", async () => {
    const { key, record } = await seedUserWithKey(gw);
    await updateKey(gw, record.id, { unlimitedQuota: false, quota: 0 });
    expectInvalidToken(await probe('chatCompletions', 'bearer', key));
    await updateKey(gw, record.id, { unlimitedQuota: true, expiresAt: Math.floor(Date.now() / 1000) - 10 });
    expectInvalidToken(await probe('chatCompletions', 'bearer', key));
  });
});
