// A .gitignore rule without a slash is matched against the last part of a path alone
// (gitignore.ts parseRule): the shortcut must give the verdicts of `**/<rule>` on the whole path,
// which is what refcat matched before (and gitignore-vs-git.test.ts holds to git check-ignore).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseRule } from '../../src/core/walk/gitignore.js';
import { compileGlob } from '../../src/core/walk/glob-match.js';

/** The verdict of `**\/<rule>` on `rel`, as the rule was compiled before the shortcut; or 'throws'. */
function viaGlobstar(line: string, rel: string): boolean | 'throws' {
  try {
    return compileGlob(`**/${line}`, { dot: true, windows: false }).test(rel);
  } catch {
    return 'throws';
  }
}

function viaRule(raw: string, rel: string): boolean | 'throws' {
  try {
    return parseRule(raw)!.match(rel);
  } catch {
    return 'throws';
  }
}

// No extglobs or parentheses: picomatch's `**/)**` matches `)a/a` across the `/`, where the
// shortcut matches the name `a` alone. A walk asks each folder first, as git does, and the folder
// `)a` is ignored by `)**` either way (git check-ignore agrees). Extglobs are picomatch's, not git's.
const piece = fc.constantFrom('a', 'b', 'x', '.', '-', '_', '*', '**', '?', '[ab]', '[^a]', '[a-c]', '{a,b}', '\\*', '.log', 'é');
const ruleText = fc
  .array(piece, { minLength: 1, maxLength: 5 })
  .map((parts) => parts.join(''))
  // A rule without a slash, not a comment, a negation or only spaces (parseRule's own cases).
  .filter((r) => !r.includes('/') && !r.startsWith('#') && !r.startsWith('!') && r.trim() === r && r !== '');
const name = fc.array(fc.constantFrom('a', 'b', 'x', '.', '-', '_', '*', '?', 'log', '.log', 'ab', 'é', '{', ','), { minLength: 1, maxLength: 4 }).map((p) => p.join(''))
  // A walk never meets `.` or `..`: folders list neither.
  .filter((n) => n !== '.' && n !== '..');
const relPath = fc.array(name, { minLength: 1, maxLength: 3 }).map((parts) => parts.join('/'));

describe('a .gitignore rule without a slash', () => {
  it('matches a path as `**/<rule>` does (fast-check)', () => {
    fc.assert(
      fc.property(ruleText, fc.array(relPath, { minLength: 1, maxLength: 8 }), (rule, paths) => {
        for (const rel of paths) expect(viaRule(rule, rel), `${rule} on ${rel}`).toBe(viaGlobstar(rule, rel));
      }),
      { numRuns: 1000 },
    );
  });

  it.each([
    ['*.gen.ts', 'src/m0/d0/f1.gen.ts', true],
    ['*.gen.ts', 'src/m0/d0/f1.ts', false],
    ['*.log', '.log', true],
    ['build', 'a/b/build', true],
    ['build', 'a/build/x', false],
    ['b*', 'a/b/c', false],
    ['**', 'a/b', true],
    ['a?c', 'x/abc', true],
    ['[ab].txt', 'deep/b.txt', true],
  ])('%s on %s: %s', (rule, rel, verdict) => {
    expect(viaRule(rule, rel)).toBe(verdict);
    expect(viaGlobstar(rule, rel)).toBe(verdict);
  });
});
