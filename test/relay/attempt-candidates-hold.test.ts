import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../src/errors/gateway-error.js';
import { attemptCandidates, type AttemptOptions } from '../../src/relay/attempt-candidates.js';
import type { RoutableChannel } from '../../src/routing/routing-catalog.js';
import { channelRecord, healthWithoutStore } from '../routing/health-fixture.js';

// admin-api section 7: a hold that began after the request was admitted still keeps it from the upstream.

const channel: RoutableChannel = {
  ...channelRecord(),
  endpointTypes: ['openai'],
  endpointTypesFor: () => ['openai'],
};

describe('attemptCandidates with every candidate held', () => {
  it('sends nothing and throws the gateway 429 with the upstream message and the seconds left', async () => {
    const { health } = healthWithoutStore({ now: () => Date.now() });
    health
      .route([channel], 'm')
      .next()!
      .failed({ retryAfter: '7', rateLimited: { message: 'slow down' } });
    let planned = 0;
    const options = {
      targets: [
        {
          candidates: [channel],
          model: 'm',
          plan: async () => {
            planned += 1;
            return undefined;
          },
        },
      ],
      health,
    } as unknown as AttemptOptions;
    const thrown = await attemptCandidates(options).catch((error: unknown) => error);
    expect(thrown).toBeInstanceOf(GatewayError);
    const error = thrown as GatewayError;
    expect({ status: error.status, code: error.code, message: error.message }).toEqual({
      status: 429,
      code: 'rate_limit_exceeded',
      message: 'slow down',
    });
    expect(['6', '7']).toContain(error.headers['retry-after']);
    expect(planned).toBe(0);
    health.close();
  });
});
