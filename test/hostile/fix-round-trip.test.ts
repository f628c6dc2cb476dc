import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseRef } from '../../src/core/ref-spec/parse-ref-spec.js';
import { findDocRefs } from '../../src/core/doc-refs/find-doc-refs.js';
import { GitRepo, numbered } from '../helpers/git-repo.js';
import { refcatInProcess } from '../helpers/in-process.js';

// A ref --fix writes must read back as the file and lines it means (docs/reference.md#drift-verdicts):
// verify refs finds it, whole, where it was written, and it parses to the same path and lines. The
// ref grammar escapes only `#`, `%` and whitespace in a path; a new name holding anything else a
// doc ref cannot hold, or a glob character, leaves the ref as it was, with a warning naming it.

const X = numbered('x', 30);
const DOC = ['See @lib/x.js#L4.', 'In parentheses (@lib/x.js#L4) and `@lib/x.js#L4`.', '- [link text] @lib/x.js#L4, then more', ''].join('\n');

/** A repository whose lib/x.js is renamed to lib/<name> (and gains a first line) after a.md cites it. */
function renamed(name: string): GitRepo {
  const repo = GitRepo.init({ 'lib/x.js': X, 'a.md': DOC });
  repo.git('--literal-pathspecs', 'mv', '--', 'lib/x.js', `lib/${name}`);
  repo.commit('rename', { [`lib/${name}`]: 'top\n' + X });
  return repo;
}

/** Every ref verify refs finds in the doc, and the file each names, as the extraction reads it. */
function refsOf(repo: GitRepo, doc: string): { text: string; file: string; line: number }[] {
  return findDocRefs(repo.read(doc), { markdown: true, isKnownAlias: () => false }).map((r) => {
    const spec = parseRef(r.ref);
    const sel = spec.selector;
    return { text: r.text, file: path.join(repo.dir, spec.path), line: sel?.kind === 'range' ? sel.start : 0 };
  });
}

describe('--fix writes a renamed file only in a ref that reads back as that file', () => {
  const written: [string, string][] = [
    ['a space, percent-encoded', 'b%20c.js'],
    ['a #, percent-encoded', 'b%23c.js'],
    ['a % before hex digits, percent-encoded', 'b%2525.js'],
    ['a name that reads as alias:path, given ./', './note:1.js'],
    ['other punctuation a ref may hold', "b!c$d&e+f'g.js".replace("'", '=')],
  ];
  it.each(written)('%s: fixed, and verify refs finds the new ref at its place, naming the renamed file', async (_why, spelled) => {
    const name = decodeURIComponent(spelled.replace(/^\.\//, ''));
    const repo = renamed(name);
    // The run that fixes them still fails: the refs it found named a file that is gone.
    const r = await refcatInProcess(['verify', 'refs', '--fix', 'a.md'], { cwd: repo.dir });
    expect(r.stdout).toContain(`FIXED a.md:1: @lib/x.js#L4 → @lib/${spelled.replace(/^\.\//, '')}#L5`);
    const found = refsOf(repo, 'a.md');
    expect(found).toHaveLength(4);
    for (const f of found) {
      expect(f.file).toBe(path.join(repo.dir, 'lib', name));
      expect(f.line).toBe(5);
    }
    // And the check itself passes on the rewritten doc.
    const again = await refcatInProcess(['verify', 'refs', 'a.md'], { cwd: repo.dir });
    expect(again.code, again.stdout).toBe(0);
    expect(again.stdout).toContain('4 reference(s)');
  });

  const refused: [string, string, string][] = [
    ['a parenthesis', 'b(c).js', 'verify refs would not find as written'],
    ['a backtick', 'b`c.js', 'verify refs would not find as written'],
    ['brackets', '[x].js', 'verify refs would not find as written'],
    ['braces and a comma', '{a,b}.js', 'verify refs would not find as written'],
    ['a quote', 'b"c.js', 'verify refs would not find as written'],
    ['a *', 'b*c.js', 'would read as a glob'],
    ['a ?', 'a?b.js', 'would read as a glob'],
  ];
  it.each(refused)('%s (%s): left as written, a warning names each ref, JSON says so', async (_why, name, problem) => {
    const repo = renamed(name);
    const r = await refcatInProcess(['verify', 'refs', '--fix', 'a.md'], { cwd: repo.dir });
    expect(repo.read('a.md')).toBe(DOC);
    for (const line of [1, 2, 2, 3]) {
      expect(r.stdout).toContain(`NOT FIXED a.md:${line}: @lib/x.js#L4 would become @lib/${name}#L5, which ${problem}`);
    }
    expect(r.stdout).not.toContain('  FIXED');
    const json = await refcatInProcess(['verify', 'refs', '--fix', '--json', 'a.md'], { cwd: repo.dir });
    const notFixed = (JSON.parse(json.stdout) as { drift: { not_fixed: Record<string, unknown>[] } }).drift.not_fixed;
    expect(notFixed.map((n) => [n.kind, n.line, n.ref, n.new_ref])).toEqual([1, 2, 2, 3].map((line) => ['no_round_trip', line, '@lib/x.js#L4', `@lib/${name}#L5`]));
  });

  it('in a workflow, a renamed file with a parenthesis is written (words are split at whitespace only), a glob name is not', async () => {
    const conv = 'REFCAT @lib/x.js#L4\nCONTEXT @lib/x.js#L4\n';
    for (const [name, fixed] of [['b(c).js', true], ['b*c.js', false]] as const) {
      const repo = GitRepo.init({ 'lib/x.js': X, 'w.conv': conv });
      repo.git('--literal-pathspecs', 'mv', '--', 'lib/x.js', `lib/${name}`);
      repo.commit('rename', { [`lib/${name}`]: 'top\n' + X });
      const r = await refcatInProcess(['verify', 'refs', '--fix', 'w.conv'], { cwd: repo.dir });
      if (fixed) {
        expect(repo.read('w.conv')).toBe(`REFCAT @lib/${name}#L5\nCONTEXT @lib/${name}#L5\n`);
        expect((await refcatInProcess(['verify', 'refs', 'w.conv'], { cwd: repo.dir })).code).toBe(0);
      } else {
        expect(repo.read('w.conv')).toBe(conv);
        expect(r.stdout).toContain(`NOT FIXED w.conv:1: @lib/x.js#L4 would become @lib/${name}#L5, which would read as a glob`);
      }
    }
  });

  it('--fix-snippets: a citation whose file was renamed to such a name keeps its ref and its snippet', async () => {
    const code = numbered('c', 12);
    const doc = '```js\n// @lib/c.js#L3-L4\nc 3\nc 4\n```\n';
    const repo = GitRepo.init({ 'lib/c.js': code, 'a.md': doc });
    repo.git('--literal-pathspecs', 'mv', '--', 'lib/c.js', 'lib/b(c).js');
    repo.commit('rename');
    const r = await refcatInProcess(['verify', 'refs', '--fix-snippets', 'a.md'], { cwd: repo.dir });
    expect(repo.read('a.md'), r.stdout).toBe(doc);
    expect(r.stdout).toContain('NOT FIXED a.md:2: @lib/c.js#L3-L4 would become @lib/b(c).js#L3-L4, which verify refs would not find as written');
  });

  it("a bare citation (embedme's `// lib/c.js#L3-L4`, found by the citation scan) is still fixed, bare, when its lines move", async () => {
    const code = numbered('c', 12);
    const repo = GitRepo.init({ 'lib/c.js': code, 'a.md': '```js\n// lib/c.js#L3-L4\nc 3\nc 4\n```\n' });
    repo.commit('insert', { 'lib/c.js': 'top\n' + code });
    const r = await refcatInProcess(['verify', 'refs', '--fix', 'a.md'], { cwd: repo.dir });
    expect(r.stdout).toContain('FIXED a.md:2: lib/c.js#L3-L4 → lib/c.js#L4-L5');
    expect(repo.read('a.md')).toBe('```js\n// lib/c.js#L4-L5\nc 3\nc 4\n```\n');
  });

  // Any name from a hostile alphabet: whatever --fix writes is found where it was written and
  // names the renamed file and its lines; whatever it does not write is named in a warning.
  it('random hostile names: a written ref round-trips, an unwritten one is reported and the doc kept', async () => {
    const alphabet = fc.constantFrom(...'ab é ()[]{}*?#%20`\'",;|:@!$&+=~\\'.split(''));
    const names = fc.array(alphabet, { minLength: 1, maxLength: 6 }).map((cs) => cs.join('') + '.js');
    await fc.assert(
      fc.asyncProperty(names, async (name) => {
        const repo = renamed(name);
        const r = await refcatInProcess(['verify', 'refs', '--fix', '--json', 'a.md'], { cwd: repo.dir });
        const drift = (JSON.parse(r.stdout) as { drift: { fixed: number; not_fixed?: { kind: string }[] } }).drift;
        const notFixed = drift.not_fixed ?? [];
        expect(drift.fixed + notFixed.length).toBe(4);
        expect(notFixed.every((n) => n.kind === 'no_round_trip')).toBe(true);
        const found = refsOf(repo, 'a.md');
        // Each line's ref was either rewritten (and reads back as the renamed file, line 5) or kept.
        for (const f of found) {
          if (f.text.startsWith('@lib/x.js')) expect(f.line).toBe(4);
          else expect([f.file, f.line]).toEqual([path.join(repo.dir, 'lib', name), 5]);
        }
        expect(found).toHaveLength(4);
        expect(found.filter((f) => !f.text.startsWith('@lib/x.js'))).toHaveLength(drift.fixed);
        fs.rmSync(repo.dir, { recursive: true, force: true });
      }),
      { numRuns: 25 },
    );
  }, 300_000);
});
