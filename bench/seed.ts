/**
 * What a gateway is seeded with: a key without limits, one with an rpm limit far too high to refuse,
 * and one with a daily budget and a concurrency cap that are never reached either.
 */
export interface SeededKeys {
  unlimited: string;
  limited: string;
  budgeted: string;
  /** A key of a group whose requests one regex guardrail reads (it never matches them). */
  guarded: string;
  /** A key whose requests' bodies are stored. */
  logged: string;
}

/**
 * Gives a fresh gateway the bench's channels (OpenAI and Anthropic, both on the bench upstream),
 * their prices, a virtual model served by the OpenAI one (`bench-virtual`), a user and five keys:
 * one without limits, two with limits never reached, one whose group has a regex guardrail, and
 * one whose bodies are stored.
 */
export async function seedGateway(
  origin: string,
  upstreamOrigin: string,
  adminToken: string,
): Promise<SeededKeys> {
  const admin = async (method: string, route: string, body: unknown): Promise<any> => {
    const response = await fetch(`${origin}/api${route}`, {
      method,
      headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`${method} ${route}: ${response.status} ${await response.text()}`);
    return response.json();
  };
  await admin('POST', '/channels', {
    name: 'bench',
    type: 'openai',
    base_url: upstreamOrigin,
    keys: ['upstream-key'],
    models: ['bench-model'],
    groups: ['default', 'guarded'],
  });
  await admin('POST', '/channels', {
    name: 'bench-anthropic',
    type: 'anthropic',
    base_url: upstreamOrigin,
    keys: ['upstream-key'],
    models: ['bench-claude'],
  });
  await admin('PUT', '/prices/bench-model', { input: 1, output: 2 });
  await admin('PUT', '/prices/bench-claude', { input: 1, output: 2 });
  await admin('POST', '/virtual-models', {
    name: 'bench-virtual',
    targets: [{ model: 'bench-model', priority: 1 }, { model: 'bench-claude' }],
  });
  const user = await admin('POST', '/users', { username: 'bench', balance: 1_000_000 });
  const unlimited = await admin('POST', '/keys', { user_id: user.id });
  const limited = await admin('POST', '/keys', { user_id: user.id, rpm: 1_000_000_000 });
  const budgeted = await admin('POST', '/keys', {
    user_id: user.id,
    budgets: [{ period: 'day', usd: 1_000_000 }],
    max_concurrency: 1_000,
  });
  await admin('PUT', '/groups/guarded', { ratio: 1 });
  await admin('POST', '/guardrails', {
    name: 'bench-guard',
    kind: 'regex',
    pattern: '\\bpassword\\s*[:=]',
    groups: ['guarded'],
  });
  const guarded = await admin('POST', '/keys', { user_id: user.id, group: 'guarded' });
  const logged = await admin('POST', '/keys', { user_id: user.id, log_bodies: true });
  return {
    unlimited: unlimited.key,
    limited: limited.key,
    budgeted: budgeted.key,
    guarded: guarded.key,
    logged: logged.key,
  };
}
