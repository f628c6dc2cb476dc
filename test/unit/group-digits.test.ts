import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { groupDigits } from '../../src/shared/group-digits.js';

// toLocaleString('en-US') is the reference: groupDigits() must write what it writes.
describe('groupDigits', () => {
  it.each([
    [0, '0'],
    [7, '7'],
    [999, '999'],
    [1000, '1,000'],
    [12345, '12,345'],
    [123456, '123,456'],
    [1234567, '1,234,567'],
    [-1000, '-1,000'],
    [-999, '-999'],
    [400_000, '400,000'],
    [Number.MAX_SAFE_INTEGER, '9,007,199,254,740,991'],
  ])('%d is %s', (n, text) => {
    expect(groupDigits(n)).toBe(text);
    expect(groupDigits(n)).toBe(n.toLocaleString('en-US'));
  });

  it('writes every safe integer as toLocaleString("en-US") does', () => {
    fc.assert(
      fc.property(fc.oneof(fc.integer(), fc.maxSafeInteger(), fc.integer({ min: -1e7, max: 1e7 })), (n) => groupDigits(n) === n.toLocaleString('en-US')),
      { numRuns: 2000 },
    );
  });
});
