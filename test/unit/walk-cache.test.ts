import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Confinement } from '../../src/core/safe-read/confinement.js';
import { expandGlob, type WalkWarning } from '../../src/core/walk/glob.js';
import { WalkCache } from '../../src/core/walk/walk-cache.js';
import { validateConv } from '../../src/core/workflow/validate-conv.js';
import { extract } from '../../src/core/extract/extract.js';
import { refcatInProcess } from '../helpers/in-process.js';
import { testCtx, tmpDir } from '../helpers/tmp.js';

// Many globs, one read of the tree (docs/reference.md#globs): the walks of a command share what
// they read, and every glob's matches and warnings stay what a walk of its own gives.

afterEach(() => {
  vi.restoreAllMocks();
});

/** A tree with what changes a walk: nested .gitignore rules and re-includes, dot folders, node_modules, links and a loop. */
function tree(): string {
  const root = tmpDir({
    '.gitignore': '*.log\nbuild/\n!keep.log\n',
    'a.ts': 'a\n',
    'keep.log': 'k\n',
    'x.log': 'x\n',
    'src/b.ts': 'b\n',
    'src/c.js': 'c\n',
    'src/.gitignore': 'gen/\n*.tmp.ts\n!src-keep.tmp.ts\n',
    'src/gen/d.ts': 'd\n',
    'src/e.tmp.ts': 'e\n',
    'src/src-keep.tmp.ts': 'k\n',
    'src/deep/er/f.ts': 'f\n',
    'src/deep/er/.hidden/g.ts': 'g\n',
    'build/out.ts': 'o\n',
    'node_modules/pkg/index.ts': 'n\n',
    '.github/workflows/ci.yml': 'y\n',
    'docs/readme.md': 'r\n',
    'docs/.gitignore': '!*.log\n',
    'docs/notes.log': 'n\n',
  });
  fs.mkdirSync(path.join(root, '.git'));
  fs.symlinkSync('src', path.join(root, 'linked'));
  fs.symlinkSync('..', path.join(root, 'src', 'deep', 'up'));
  fs.symlinkSync('gone', path.join(root, 'dangling.ts'));
  return root;
}

const GLOBS = [
  '**/*.ts', '*.ts', 'src/**/*.ts', 'src/*', '**/*.log', '**/.github/**/*.yml', 'linked/**/*.ts', '**/*.{ts,js}',
  'src/deep/**', '**/gen/*', 'node_modules/**/*.ts', 'build/*.ts', '**/up/*.ts', 'docs/*', '*/*/*.ts', '**/*.zz1', '**',
];

describe('a shared walk cache', () => {
  it('gives every glob the matches and warnings of a walk of its own, in any order, ignoring or not', () => {
    const root = tree();
    // A walk of its own, pruned by the glob and matching as it goes: a confinement to `/` allows
    // everything and keeps the walk the glob's own.
    const own = (glob: string, noIgnore: boolean) => {
      const warnings: WalkWarning[] = [];
      return { files: expandGlob(glob, root, noIgnore, warnings, new Confinement('/'), new WalkCache()), warnings };
    };
    fc.assert(
      fc.property(fc.shuffledSubarray(GLOBS, { minLength: 1 }), fc.boolean(), (globs, noIgnore) => {
        const cache = new WalkCache();
        for (const glob of globs) {
          expect(expandGlob(glob, root, noIgnore), glob).toEqual(own(glob, noIgnore).files);
          const warnings: WalkWarning[] = [];
          expect({ files: expandGlob(glob, root, noIgnore, warnings, undefined, cache), warnings }, glob).toEqual(own(glob, noIgnore));
        }
      }),
      { numRuns: 40 },
    );
  });

  it('past its budget of folder entries, a cache reads folders again, with the same matches', () => {
    const root = tree();
    const small = new WalkCache(6);
    const big = new WalkCache();
    for (const glob of GLOBS) expect(expandGlob(glob, root, true, [], undefined, small), glob).toEqual(expandGlob(glob, root, true, [], undefined, big));
    expect(small.folderReads).toBeGreaterThan(big.folderReads);
  });

  it('with a confinement and a link leading out, too', () => {
    const top = tmpDir({ 'root/in.txt': 'i\n', 'root/src/a.ts': 'a\n', 'outside/deep/x.ts': 'x\n' });
    const root = path.join(top, 'root');
    fs.symlinkSync(path.join(top, 'outside'), path.join(root, 'linkdir'));
    const confine = new Confinement(root);
    const cache = new WalkCache();
    for (const glob of ['**/*.ts', 'link*', '*.txt', '**/x.ts', 'src/*.ts']) {
      expect(expandGlob(glob, root, false, [], confine, cache), glob).toEqual(expandGlob(glob, root, false, [], confine));
    }
  });

  it('200 CONTEXT globs in a workflow read each folder once, with the same findings as one workflow per glob', () => {
    const root = tree();
    const lines = Array.from({ length: 200 }, (_, i) => `CONTEXT-OPTIONAL @**/*.zz${i}`);
    lines.push('CONTEXT @src/**/*.ts', 'CONTEXT @**/*.log', 'CONTEXT @build/*.ts', 'CONTEXT @**/*.nothing');
    fs.writeFileSync(path.join(root, 'many.conv'), `PROMPT hi\n${lines.join('\n')}\n`);
    const readdir = vi.spyOn(fs, 'readdirSync');
    const many = validateConv('many.conv', testCtx(root));
    const reads = new Map<string, number>();
    for (const [dir] of readdir.mock.calls) reads.set(String(dir), (reads.get(String(dir)) ?? 0) + 1);
    expect(Math.max(...reads.values())).toBe(1);
    readdir.mockRestore();
    // The old way: each glob walked on its own, in a workflow of its own.
    const one = lines.flatMap((line) => {
      fs.writeFileSync(path.join(root, 'one.conv'), `PROMPT hi\n${line}\n`);
      const v = validateConv('one.conv', testCtx(root));
      return [...v.errors, ...v.warnings].map((f) => ({ ...f, file: 'x', line: null }));
    });
    const sorted = (fs_: { severity: string }[]) => [...fs_].sort((a, b) => (a.severity < b.severity ? -1 : a.severity > b.severity ? 1 : 0));
    expect([...many.errors, ...many.warnings].map((f) => ({ ...f, file: 'x', line: null }))).toEqual(sorted(one));
    expect(many.errors.map((f) => f.message)).toEqual(['CONTEXT pattern matches nothing: @**/*.nothing']);
  });

  it('extraction: the glob refs of one call, and the CONTEXT globs of --from-workflow, read each folder once', async () => {
    const root = tree();
    const globs = Array.from({ length: 50 }, (_, i) => `@**/*.zz${i}`);
    let readdir = vi.spyOn(fs, 'readdirSync');
    const report = extract([...globs, '@src/**/*.ts'], testCtx(root), { checkOnly: true });
    expect(report.errors).toHaveLength(50);
    expect(report.results.map((r) => r.relPath)).toEqual(['src/b.ts', 'src/deep/er/f.ts', 'src/src-keep.tmp.ts']);
    const most = (calls: unknown[][]) => Math.max(...[...calls.reduce((m, [d]) => m.set(String(d), (m.get(String(d)) ?? 0) + 1), new Map<string, number>()).values()]);
    expect(most(readdir.mock.calls)).toBe(1);
    readdir.mockRestore();
    fs.writeFileSync(path.join(root, 'flow.conv'), `PROMPT hi\n${globs.map((g) => `CONTEXT-OPTIONAL ${g}`).join('\n')}\nCONTEXT @src/**/*.ts\n`);
    readdir = vi.spyOn(fs, 'readdirSync');
    const r = await refcatInProcess(['--from-workflow', 'flow.conv', '--list-files'], { cwd: root });
    expect(r.stdout).toBe('src/b.ts\nsrc/deep/er/f.ts\nsrc/src-keep.tmp.ts\n');
    expect(most(readdir.mock.calls.filter(([d]) => String(d).startsWith(root)))).toBe(1);
  });
});
