import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { fileDeclarations } from '../../src/core/symbols/declaration-table.js';
import { primeSymbolTables } from '../../src/core/symbols/prime-tables.js';
import { tmpDir } from '../helpers/tmp.js';

// Tables fetched ahead of a synchronous read (src/core/symbols/prime-tables.ts). Here parsing is
// in this thread, and each file is in a language of its own: a file that was not fetched finds
// its grammar not loaded, so the synchronous read says which files were.
const notLoaded = /grammar is not loaded/;

describe('primeSymbolTables', () => {
  it('fetches the files symbol refs name, in the folders given; line refs, patterns, globs and refused files are left alone', async () => {
    const dir = tmpDir({ 'a.py': 'def f():\n    pass\n', 'b.rb': 'def g\nend\n', 'c.go': 'package c\nfunc H() {}\n', 'd.rs': 'fn k() {}\n', 'e.java': 'class E {}\n', 'sub/f.kt': 'fun q() {}\n' });
    const at = (f: string) => path.join(dir, f);
    await primeSymbolTables(
      ['@a.py#f', '@b.rb#L1', '@c.go#/func/', '@*.rs#k', '@e.java#E', '@f.kt#q', 'prose', '@a.py#bad ref ::'],
      (spec) => (spec.path === 'f.kt' ? [dir, path.join(dir, 'sub')] : [dir]),
      (abs) => !abs.endsWith('.java'),
    );
    expect(fileDeclarations(at('a.py'), 'a').map((d) => d.path)).toEqual(['f']);
    expect(fileDeclarations(at('sub/f.kt'), 'f').map((d) => d.path)).toEqual(['q']);
    for (const f of ['b.rb', 'c.go', 'd.rs', 'e.java']) expect(() => fileDeclarations(at(f), f), f).toThrow(notLoaded);
  });

  it('stops between files once the caller no longer wants them', async () => {
    const dir = tmpDir({ 'a.c': 'int f(void) { return 0; }\n', 'b.cs': 'class B {}\n' });
    let asked = 0;
    await primeSymbolTables(['@a.c#f', '@b.cs#B'], () => [dir], undefined, () => asked++ === 0);
    expect(fileDeclarations(path.join(dir, 'a.c'), 'a').map((d) => d.path)).toEqual(['f']);
    expect(() => fileDeclarations(path.join(dir, 'b.cs'), 'b')).toThrow(notLoaded);
  });
});
