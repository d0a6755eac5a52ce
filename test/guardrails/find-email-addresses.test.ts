import { describe, expect, it } from 'vitest';
import { findEmailAddresses } from '../../src/guardrails/pii/find-email-addresses.js';
import { spansOf } from './spans-of.js';

const spans = (text: string) => spansOf(findEmailAddresses, text);

describe('findEmailAddresses', () => {
  it('finds addresses with the usual local-part characters and multi-label domains', () => {
    expect(spans('write to john.doe+news@example.co.uk today')).toEqual(['john.doe+news@example.co.uk']);
    expect(spans('<a_b-c%d@mail-1.example.org>, (x@y.io).')).toEqual([
      'a_b-c%d@mail-1.example.org',
      'x@y.io',
    ]);
    expect(spans('"USER@EXAMPLE.COM"')).toEqual(['USER@EXAMPLE.COM']);
  });

  it('takes the credentials of a URL as an address, which they are as good as', () => {
    expect(spans('https://user:hunter2@db.example.com/x')).toEqual(['hunter2@db.example.com']);
  });

  it('leaves what is not an address', () => {
    expect(spans('user@localhost, @mention, a@b, a@b.c, x@1.2, foo@bar.c0m')).toEqual([]);
    expect(spans('email me at the usual place')).toEqual([]);
    expect(spans('decorators like @Component({ selector: "x" })')).toEqual([]);
  });

  it('stops at the end of the domain', () => {
    expect(spans('ann@example.com.')).toEqual(['ann@example.com']);
    expect(spans('ann@example.com_backup')).toEqual(['ann@example.com']);
  });
});
