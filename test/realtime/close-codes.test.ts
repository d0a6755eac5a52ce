import { describe, expect, it } from 'vitest';
import { forwardableClose, isSendable } from '../../src/http/realtime/close-codes.js';

describe('forwardableClose', () => {
  it('passes on codes an endpoint may send, with their reason', () => {
    expect(forwardableClose(1000, Buffer.from('OK'))).toEqual({ code: 1000, reason: 'OK' });
    expect(forwardableClose(4000, 'invalid_request_error.x')).toEqual({
      code: 4000,
      reason: 'invalid_request_error.x',
    });
    expect(forwardableClose(3000, '')).toEqual({ code: 3000, reason: '' });
  });

  it('1005 (no code given) goes on as no code', () => {
    expect(forwardableClose(1005, '')).toEqual({ code: undefined, reason: '' });
  });

  it('codes no endpoint may send become 1011', () => {
    expect(forwardableClose(1006, '').code).toBe(1011);
    expect(forwardableClose(1015, 'tls').code).toBe(1011);
    expect(forwardableClose(1004, '').code).toBe(1011);
    expect(forwardableClose(5000, '').code).toBe(1011);
  });

  it('agrees with what `ws` accepts', () => {
    for (const code of [999, 1000, 1004, 1005, 1006, 1012, 1014, 1015, 2999, 3000, 4999, 5000])
      expect(isSendable(code)).toBe([1000, 1012, 1014, 3000, 4999].includes(code));
  });
});
