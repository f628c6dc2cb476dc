import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { checkDocument } from '../../src/core/editor/check-document.js';
import { EditorSession } from '../../src/core/editor/editor-session.js';
import { findRunIn, runIndex, scanRun } from '../../src/core/snippets/compare-snippet.js';
import { SnippetFiles } from '../../src/core/snippets/snippet-files.js';
import { refcatInProcess } from '../helpers/in-process.js';
import { testCtx, tmpDir } from '../helpers/tmp.js';

// Whole-file reads, counted by path: the subject is how often a run reads each code file.
const wholeReads = vi.hoisted(() => new Map<string, number>());
vi.mock('../../src/core/safe-read/read-text-file.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../src/core/safe-read/read-text-file.js')>();
  return {
    ...real,
    readTextFile: (abs: string, ...rest: Parameters<typeof real.readTextFile> extends [string, ...infer R] ? R : never) => {
      wholeReads.set(abs, (wholeReads.get(abs) ?? 0) + 1);
      return real.readTextFile(abs, ...rest);
    },
  };
});

const code = (n: number) => Array.from({ length: n }, (_, i) => `line ${i + 1} of the code`).join('\n') + '\n';

describe('stale snippets read their file once per run (docs/snippets.md#comparing)', () => {
  it('200 stale citations of one file: one whole read, and each now_at as before', async () => {
    const root = tmpDir({ 'src/big.py': code(3000) });
    const blocks = Array.from({ length: 200 }, (_, k) => {
      const n = 10 + k * 10;
      // Cites lines n..n+1 but copies n+5..n+6: stale, and found once elsewhere.
      return `\`\`\`python\n# @src/big.py#L${n}-L${n + 1}\nline ${n + 5} of the code\nline ${n + 6} of the code\n\`\`\`\n`;
    });
    fs.writeFileSync(path.join(root, 'doc.md'), blocks.join('\n'));
    wholeReads.clear();
    const r = await refcatInProcess(['verify', 'refs', 'doc.md', '--json'], { cwd: root });
    const snippets = (JSON.parse(r.stdout) as { snippets: { stale: number; refs: { now_at: string | null }[] } }).snippets;
    expect(snippets.stale).toBe(200);
    expect(snippets.refs.map((s) => s.now_at)).toEqual(Array.from({ length: 200 }, (_, k) => `@src/big.py#L${15 + k * 10}-L${16 + k * 10}`));
    expect(wholeReads.get(path.join(root, 'src/big.py'))).toBe(1);
  });

  it('the editor: one read per check of a document, however many of its snippets are stale', async () => {
    const root = tmpDir({ 'src/big.py': code(600) });
    const text = Array.from({ length: 50 }, (_, k) => `\`\`\`python\n# @src/big.py#L${k + 1}\nline ${k + 300} of the code\n\`\`\`\n`).join('\n');
    wholeReads.clear();
    const findings = await checkDocument({ path: path.join(root, 'doc.md'), kind: 'markdown', text, version: 1 }, new EditorSession(testCtx(root)));
    expect(findings!.filter((f) => f.code === 'stale_snippet')).toHaveLength(50);
    expect(findings![0]!.message).toContain('; now at @src/big.py#L300');
    expect(wholeReads.get(path.join(root, 'src/big.py'))).toBe(1);
  });

  it('files beyond the held bytes are let go, the least recently searched first', () => {
    const root = tmpDir({ 'a.txt': code(100), 'b.txt': code(100), 'c.txt': code(100) });
    const size = fs.statSync(path.join(root, 'a.txt')).size;
    const files = new SnippetFiles(2 * size);
    const at = (name: string) => files.index(path.join(root, name));
    for (const name of ['a.txt', 'b.txt', 'a.txt', 'c.txt', 'a.txt', 'b.txt']) at(name);
    // a, b read; a held; c read (b let go); a held; b read again.
    expect(files.reads).toBe(4);
    expect(at('missing.txt').text).toEqual([]);
  });
});

describe('findRunIn: the rarest line first, the same answer as one pass over the file', () => {
  it('agrees with the linear scan on repetitive files', () => {
    const line = fc.constantFrom('a', 'b', 'c', '  a', '', '}');
    fc.assert(
      fc.property(fc.array(line, { maxLength: 60 }), fc.array(line, { minLength: 1, maxLength: 5 }), (file, snippet) => {
        const index = runIndex(file);
        const want = snippet.map((l) => l.trim()).filter((l) => l !== '');
        const expected = want.length === 0 ? null : scanRun(want, index);
        expect(findRunIn(snippet, index)).toEqual(expected);
      }),
      { numRuns: 2000 },
    );
  });
});
