import { describe, expect, test } from 'vitest';
import { parseConfigText } from '../../src/config-file/read-config-file.js';

const ENVIRONMENT = { OPENAI_KEY: 'sk-from-environment', ANTHROPIC_KEY: 'sk-ant-from-environment' };

describe('reading a configuration file', () => {
  test('a valid file: the management API defaults filled in, ${NAME} taken from the environment', () => {
    const reading = parseConfigText(
      `
channels:
  - name: openai
    type: openai
    keys: ["\${OPENAI_KEY}"]
    models: [gpt-4o]
prices:
  - { model: gpt-4o, input: 2.5, output: 10 }
groups:
  - { name: vip, ratio: 0.8 }
settings:
  retry_times: 3
  redact_pii: logs
`,
      ENVIRONMENT,
    );
    expect(reading).toMatchObject({
      ok: true,
      config: {
        channels: [
          {
            name: 'openai',
            keys: ['sk-from-environment'],
            groups: ['default'],
            priority: 0,
            weight: 1,
            status: 'enabled',
          },
        ],
        prices: [{ model: 'gpt-4o', input: 2_500_000_000, output: 10_000_000_000, cached_input: null }],
        groups: [{ name: 'vip', ratio: 0.8 }],
        settings: { retry_times: 3, redact_pii: 'logs' },
        prune: false,
      },
    });
    expect(reading.ok && reading.config.models).toBeUndefined();
  });

  test('JSON is read as well', () => {
    const reading = parseConfigText(
      '{"prices": [{"model": "m", "input": 1, "output": 2}], "prune": true}',
      {},
    );
    expect(reading).toMatchObject({ ok: true, config: { prune: true, prices: [{ model: 'm' }] } });
  });

  test('every error at once, each at its place in the file', () => {
    const reading = parseConfigText(
      `
channels:
  - { name: a, type: openai, keys: [k], models: [m] }
  - { name: b, type: openai, keys: ["\${MISSING_KEY}"], models: [m] }
  - { name: c, type: opena, keys: [k], models: [m] }
  - { name: a, type: anthropic, keys: [k], models: [m] }
prices:
  - { model: m, input: -1, output: 1 }
guardrails:
  - { name: g, kind: regex }
settings:
  retry_times: many
  no_such_setting: 1
`,
      {},
    );
    expect(reading.ok).toBe(false);
    const errors = reading.ok ? [] : reading.errors;
    expect(errors).toEqual(
      expect.arrayContaining([
        'channels[1].keys[0]: the environment variable MISSING_KEY is not set',
        expect.stringMatching(/^channels\[2\]\.type: must be one of /),
        'channels[3].name: repeats "a"',
        expect.stringMatching(/^prices\[0\]\.input: /),
        'guardrails[0].pattern: is required for a regex guardrail',
        expect.stringMatching(/^settings\.retry_times: /),
        'settings.no_such_setting: unknown field',
      ]),
    );
    expect(errors, errors.join('\n')).toHaveLength(7);
  });

  test("a channel's type fields are checked as the API checks them", () => {
    const reading = parseConfigText('channels:\n  - { name: az, type: azure, keys: [k], models: [m] }\n', {});
    expect(reading).toEqual({ ok: false, errors: ['channels[0].base_url: is required for type azure'] });
  });

  test('$$ stands for a dollar sign; a YAML syntax error is reported with its line', () => {
    const dollar = parseConfigText(
      'guardrails:\n  - { name: g, kind: regex, pattern: "cost \\\\$$5" }\n',
      {},
    );
    expect(dollar).toMatchObject({ ok: true, config: { guardrails: [{ pattern: 'cost \\$5' }] } });
    const broken = parseConfigText('channels:\n  - name: a\n   type: openai\n', {});
    expect(broken.ok).toBe(false);
    expect(broken.ok ? '' : broken.errors[0]).toMatch(/line 3/);
  });

  test('a file that is not a mapping, or an unknown section, is refused', () => {
    expect(parseConfigText('- a\n- b\n', {})).toMatchObject({ ok: false });
    expect(parseConfigText('chanels: []\n', {})).toEqual({ ok: false, errors: ['chanels: unknown field'] });
  });
});
