import { describe, expect, it } from 'vitest';
import { loadedGrammar } from '../../src/core/symbols/grammar-loader.js';
import { SYMBOL_LANGUAGES } from '../../src/core/symbols/languages.js';
import { refcatInProcess } from '../helpers/in-process.js';
import { tmpDir } from '../helpers/tmp.js';

/**
 * Grammars load only when asked for (docs/refs.md#outlines---outline), and several load at once: the tests
 * run in order in one module, so the first sees no grammar loaded yet.
 */

const loaded = () => SYMBOL_LANGUAGES.filter((l) => loadedGrammar(l) !== null).map((l) => l.id);
const FILES = {
  'a.ts': 'export class A {\n  f(): void {\n    return;\n  }\n}\n',
  'b.py': 'def b():\n    """Doc."""\n    return 1\n',
  'c.tsx': 'export function C() {\n  return null;\n}\n',
  'notes.md': '# Notes\n',
};

describe('grammar loading', () => {
  it('loads nothing for a line ref, or for an outline of files without a grammar', async () => {
    const dir = tmpDir(FILES);
    expect((await refcatInProcess(['@a.ts#L1-L2', '@b.py'], { cwd: dir })).code).toBe(0);
    const md = await refcatInProcess(['@notes.md', '--outline'], { cwd: dir });
    expect(md.stdout).toContain('> Not outlined: no grammar for .md files');
    expect(loaded()).toEqual([]);
  });

  it("loads the grammars of an outline's files, several at once", async () => {
    // Before grammars were linked one at a time, this failed: "bad export type for
    // 'tree_sitter_tsx_external_scanner_create'".
    const dir = tmpDir(FILES);
    const r = await refcatInProcess(['@*.{ts,tsx,py}', '--outline', '--no-cwd'], { cwd: dir });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('  |     ⋯ 2 lines: @a.ts#A.f\n');
    expect(r.stdout).toContain('2 |     """Doc."""\n  |     ⋯ 1 line: @b.py#b\n');
    expect(r.stdout).toContain('  |   ⋯ 2 lines: @c.tsx#C\n');
    expect(loaded().sort()).toEqual(['python', 'tsx', 'typescript']);
  });
});
