import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { displayRelative } from '../../src/shared/paths.js';

// displayRelative() cuts a plain base off a plain path below it instead of calling path.relative:
// the answer must be path.relative's for every pair, plain or not.
const reference = (base: string, target: string) => {
  const rel = path.relative(base, target);
  return (rel === '' ? '.' : rel).split(path.sep).join('/');
};

describe('displayRelative', () => {
  it.each([
    ['/a/b', '/a/b/c.ts'],
    ['/a/b', '/a/bc/d.ts'],
    ['/a/b', '/a/b'],
    ['/a/b/', '/a/b/c'],
    ['/a/./b', '/a/b/c'],
    ['/a/b', '/a/b/../c'],
    ['/a/b', '/a/b//c'],
    ['/a/.hidden', '/a/.hidden/x/.y'],
    ['/', '/x/y'],
    ['/a/b', '/a/b/.'],
  ])('%s to %s', (base, target) => {
    expect(displayRelative(base, target)).toBe(reference(base, target));
  });

  it('equals path.relative on generated paths (fast-check)', () => {
    const segment = fc.constantFrom('a', 'b', 'src', '.', '..', '.git', '..x', 'é', '', 'a.ts');
    const abs = fc.array(segment, { maxLength: 6 }).map((xs) => '/' + xs.join('/'));
    fc.assert(
      fc.property(abs, fc.array(segment, { maxLength: 4 }), fc.boolean(), (base, below, inside) => {
        const target = inside ? `${base}/${below.join('/')}` : '/' + below.join('/');
        expect(displayRelative(base, target)).toBe(reference(base, target));
      }),
      { numRuns: 3000 },
    );
  });
});
