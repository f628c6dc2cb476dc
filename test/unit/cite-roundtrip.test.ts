import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { GitRepo } from '../helpers/git-repo.js';
import { refcatInProcess } from '../helpers/in-process.js';
import { tmpDir } from '../helpers/tmp.js';

// Whatever `refcat REFS --cite` prints, pasted into a .md file, reads back as verbatim citations
// (docs/snippets.md): the writer and the reader of citations agree, for every comment syntax.
const EXTENSIONS = ['ts', 'js', 'py', 'sh', 'rb', 'yaml', 'toml', 'sql', 'lua', 'hs', 'html', 'xml', 'md', 'css', 'clj', 'ini', 'erl', 'go', 'rs', 'swift', 'kt', 'java', 'c', 'r', 'pl', 'txt', 'csv'];
const line = fc.oneof(
  fc.stringMatching(/^[ -~]{0,40}$/),
  fc.constantFrom('```', '````js', '~~~', '...', '// ...', '    indented', '', '<!-- x -->', '# heading', '> quote', '- item', 'é ü ✓ 漢字'),
);

describe('--cite reads back verbatim', () => {
  it('for random files, ranges and languages', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ ext: fc.constantFrom(...EXTENSIONS), lines: fc.array(line, { minLength: 1, maxLength: 25 }), from: fc.nat(30), len: fc.nat(12), whole: fc.boolean() }), { minLength: 1, maxLength: 3 }),
        async (files) => {
          const dir = tmpDir();
          const refs = files.map((f, i) => {
            const name = `src/f${i}.${f.ext}`;
            fs.mkdirSync(path.join(dir, 'src'), { recursive: true });
            fs.writeFileSync(path.join(dir, name), f.lines.join('\n') + '\n');
            const start = 1 + (f.from % f.lines.length);
            const end = Math.min(f.lines.length, start + f.len);
            return f.whole ? `@${name}` : `@${name}#L${start}-L${end}`;
          });
          const cited = await refcatInProcess([...refs, '--cite'], { cwd: dir });
          expect(cited.code).toBe(0);
          fs.mkdirSync(path.join(dir, 'docs'));
          fs.writeFileSync(path.join(dir, 'docs/cited.md'), '# Cited\n\n' + cited.stdout);
          const verified = await refcatInProcess(['verify', 'refs', 'docs', '--json'], { cwd: dir });
          const json = JSON.parse(verified.stdout);
          expect(json.errors).toEqual([]);
          expect(json.snippets.refs.map((s: { status: string }) => s.status)).toEqual(refs.map(() => 'verbatim'));
          expect(verified.code).toBe(0);
        },
      ),
      { numRuns: 60 },
    );
  }, 120_000);
});

describe('--cite with a path that holds its comment\'s end', () => {
  it.each([
    ['x*/y.css', '/* @x*/y.css#L1-L2 */'],
    ['a-->b.html', '<!-- @a-->b.html#L1-L2 -->'],
  ])('%s still reads back verbatim (docs/refs.md#writing-citations---cite)', async (name, first) => {
    const dir = tmpDir();
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), 'one { }\ntwo { }\n');
    const cited = await refcatInProcess([`@${name}#L1-L2`, '--cite'], { cwd: dir });
    expect(cited.code).toBe(0);
    expect(cited.stdout.split('\n')[1]).toBe(first);
    fs.writeFileSync(path.join(dir, 'cited.md'), cited.stdout);
    const verified = await refcatInProcess(['verify', 'refs', 'cited.md', '--json'], { cwd: dir });
    expect(JSON.parse(verified.stdout).snippets.refs.map((s: { status: string }) => s.status)).toEqual(['verbatim']);
    expect(verified.code).toBe(0);
  });
});

describe('--cite of a revision ref reads back verbatim (docs/refs.md#revision-refs)', () => {
  it('for random contents at a tag that the checkout has since changed, by lines and by symbol', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(line, { minLength: 1, maxLength: 12 }), fc.nat(12), fc.nat(6), async (lines, from, len) => {
        const ws = tmpDir();
        const lib = GitRepo.init({}, path.join(ws, 'externals', 'lib'));
        lib.commit('v1', { 'f.txt': lines.join('\n') + '\n', 'app.ts': 'export function greet(): string {\n  return "v1";\n}\n' });
        lib.git('tag', 'v1');
        lib.commit('later', { 'f.txt': 'changed\n', 'app.ts': '// moved\nexport function greet(): string {\n  return "later";\n}\n' });
        fs.writeFileSync(path.join(ws, 'workspace.lock.json'), JSON.stringify({ repos: [{ alias: 'lib', name: 'lib' }] }));
        const start = 1 + (from % lines.length);
        const end = Math.min(lines.length, start + len);
        const refs = [`lib@v1:f.txt#L${start}-L${end}`, 'lib@v1:app.ts#greet'];
        const cited = await refcatInProcess([...refs, '--cite'], { cwd: ws });
        expect(cited.code).toBe(0);
        fs.mkdirSync(path.join(ws, 'docs'));
        fs.writeFileSync(path.join(ws, 'docs/cited.md'), '# Cited\n\n' + cited.stdout);
        const verified = await refcatInProcess(['verify', 'refs', 'docs', '--json'], { cwd: ws });
        const json = JSON.parse(verified.stdout);
        expect(json.errors).toEqual([]);
        expect(json.snippets.refs.map((s: { status: string }) => s.status)).toEqual(['verbatim', 'verbatim']);
        expect(verified.code).toBe(0);
      }),
      { numRuns: 8 },
    );
  }, 120_000);
});
