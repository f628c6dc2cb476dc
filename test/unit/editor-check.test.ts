import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkDocument } from '../../src/core/editor/check-document.js';
import { documentRefs, lineRefs } from '../../src/core/editor/document-refs.js';
import { EditorSession } from '../../src/core/editor/editor-session.js';
import { testCtx, tmpDir } from '../helpers/tmp.js';

const noAlias = () => false;

describe('documentRefs: each ref with its columns', () => {
  const cases: [string, 'markdown' | 'conv', string[]][] = [
    ['See @a.ts and @a.ts.', 'markdown', ['0:4-9 @a.ts', '0:14-19 @a.ts']],
    ['`@src/app.ts#L1-L3`, then (@b.md#intro)', 'markdown', ['0:1-18 @src/app.ts#L1-L3', '0:27-38 @b.md#intro']],
    ['```\n@in/fence.ts\n```\nloop:Sources/A.swift#L3', 'markdown', ['3:0-23 loop:Sources/A.swift#L3']],
    ['mail a@b.md or x@y.com', 'markdown', []],
    ['REFCAT @a.ts#L1  b.py#/def main/:+2\nCONTEXT @src/**/*.ts\nCONTEXT plain words', 'conv', ['0:7-15 @a.ts#L1', '0:17-35 b.py#/def main/:+2', '1:8-20 @src/**/*.ts']],
  ];
  it.each(cases)('%s', (text, kind, expected) => {
    expect(documentRefs(text, kind, noAlias).map((r) => `${r.line}:${r.start}-${r.end} ${r.text}`)).toEqual(expected);
  });

  it('lineRefs finds a ref inside a fenced example too (the user points at it)', () => {
    expect(lineRefs('@in/fence.ts', 7, 'markdown', noAlias)).toEqual([{ line: 7, start: 0, end: 12, text: '@in/fence.ts', ref: '@in/fence.ts' }]);
  });
});

describe('work per change is bounded', () => {
  const refsDoc = (n: number, changed = -1) =>
    Array.from({ length: n }, (_, i) => (i === changed ? `line ${i}: @src/f${i}.ts#L2` : `line ${i}: @src/f${i}.ts#L1`)).join('\n') + '\n';
  const project = () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 60; i++) files[`src/f${i}.ts`] = `a\nb\n`;
    return tmpDir(files);
  };

  it('a change re-resolves only the refs of the lines that changed; a target touched on disk is read again', async () => {
    const root = project();
    const session = new EditorSession(testCtx(root));
    const doc = (text: string, version: number) => ({ path: path.join(root, 'notes.md'), kind: 'markdown' as const, text, version });
    expect(await checkDocument(doc(refsDoc(60), 1), session)).toEqual([]);
    expect(session.resolutions).toBe(60);
    expect(await checkDocument(doc(refsDoc(60, 7), 2), session)).toEqual([]);
    expect(session.resolutions).toBe(61);
    expect(await checkDocument(doc('inserted line\n' + refsDoc(60, 7), 3), session)).toEqual([]);
    expect(session.resolutions).toBe(61);
    // The file of line 3 now has one line: its ref (#L1) still resolves, but it had to be read again.
    fs.writeFileSync(path.join(root, 'src/f3.ts'), 'a\n');
    fs.utimesSync(path.join(root, 'src/f3.ts'), new Date(2000, 1, 1), new Date(2000, 1, 1));
    const after = await checkDocument(doc(refsDoc(60, 7), 4), session);
    expect(session.resolutions).toBe(62);
    expect(after).toEqual([]);
    // A missing target that appears is noticed without any save.
    const missing = doc('see @src/new.ts\n', 5);
    expect((await checkDocument(missing, session))!.map((f) => f.code)).toEqual(['not_found']);
    fs.writeFileSync(path.join(root, 'src/new.ts'), 'x\n');
    expect(await checkDocument(missing, session)).toEqual([]);
  });

  it('a check whose document changed meanwhile gives up between slices and publishes nothing', async () => {
    const root = project();
    const session = new EditorSession(testCtx(root));
    let looks = 0;
    const result = await checkDocument({ path: path.join(root, 'notes.md'), kind: 'markdown', text: refsDoc(60), version: 1 }, session, () => ++looks < 2);
    expect(result).toBeNull();
    expect(session.resolutions).toBeLessThan(60);
  });
});

describe('a ref into an alias folder not cloned', () => {
  it('says "Not cloned" with the clone hint, in docs and in workflows, as verify refs does', async () => {
    const lock = { repos: [{ alias: 'trio', name: 'Trio', url: 'https://example.com/Trio.git', submodules: true }] };
    const root = tmpDir({ 'workspace.lock.json': JSON.stringify(lock) });
    const session = new EditorSession(testCtx(root));
    const expected = {
      severity: 'error',
      code: 'not_cloned',
      message:
        'Not cloned: externals/Trio does not exist (alias trio from workspace.lock.json)\n' +
        'Clone it: git clone --recurse-submodules https://example.com/Trio.git externals/Trio',
    };
    const md = await checkDocument({ path: path.join(root, 'notes.md'), kind: 'markdown', text: 'See trio:Trio/A.swift#L1 and trio:Trio/*.swift\n', version: 1 }, session);
    expect(md).toEqual([expect.objectContaining(expected), expect.objectContaining(expected)]);
    const conv = await checkDocument({ path: path.join(root, 'flow.conv'), kind: 'conv', text: 'REFCAT trio:Trio/A.swift#L1\nPROMPT go\n', version: 1 }, session);
    expect(conv).toEqual([expect.objectContaining(expected)]);
  });
});
