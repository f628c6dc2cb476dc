import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { driftNotes } from '../../src/core/editor/drift-findings.js';
import { documentRefs } from '../../src/core/editor/document-refs.js';
import { EditorSession } from '../../src/core/editor/editor-session.js';
import { GitRepo, numbered } from '../helpers/git-repo.js';
import { refcatInProcess } from '../helpers/in-process.js';
import { testCtx } from '../helpers/tmp.js';

const CALC = numbered('calc', 6);

interface DriftRef {
  ref: string;
  status: string;
  new_ref: string | null;
  edited_lines: number;
  inserted_lines?: number;
  deleted_lines?: number;
}

async function driftRefs(cwd: string): Promise<DriftRef[]> {
  const r = await refcatInProcess(['verify', 'refs', '--drift', '--json'], { cwd });
  return (JSON.parse(r.stdout) as { drift: { refs: DriftRef[] } }).drift.refs;
}

describe('a ref past the end of its file (docs/reference.md#drift-verdicts: new_ref)', () => {
  it('--fix writes a moved #L1-L99 on a 6-line file as the lines it selects, never past the new end', async () => {
    const repo = GitRepo.init({ 'src/calc.py': CALC, 'notes.md': 'See @src/calc.py#L1-L99 and @src/calc.py#L2-L9.\n' });
    repo.commit('two lines on top', { 'src/calc.py': 'import a\nimport b\n' + CALC });
    const r = await refcatInProcess(['verify', 'refs', '--fix'], { cwd: repo.dir });
    expect(r.stdout).toContain('  FIXED notes.md:1: @src/calc.py#L1-L99 → @src/calc.py#L3-L8\n');
    expect(r.stdout).toContain('  FIXED notes.md:1: @src/calc.py#L2-L9 → @src/calc.py#L4-L8\n');
    expect(repo.read('notes.md')).toBe('See @src/calc.py#L3-L8 and @src/calc.py#L4-L8.\n');
    // The fixed refs select exactly the lines they did: verify refs has nothing to clamp.
    repo.commit('fix');
    const again = await refcatInProcess(['verify', 'refs', '--drift', '--strict'], { cwd: repo.dir });
    expect(again.stdout).toMatch(/^✓ PASSED: .* 2 valid, 0 broken; drift: 2 unchanged, 0 moved/);
  });

  it('a window that reached past the end keeps its form only while it fits', async () => {
    const repo = GitRepo.init({ 'src/calc.py': CALC, 'notes.md': '@src/calc.py#L4:-1..+9\n@src/calc.py#L4:-1..+2\n' });
    repo.commit('two lines on top', { 'src/calc.py': 'import a\nimport b\n' + CALC });
    expect((await driftRefs(repo.dir)).map((r) => [r.ref, r.status, r.new_ref])).toEqual([
      ['@src/calc.py#L4:-1..+9', 'moved', '@src/calc.py#L5-L8'],
      ['@src/calc.py#L4:-1..+2', 'moved', '@src/calc.py#L6:-1..+2'],
    ]);
  });

  it('the editor\'s "Move ref to" quick fix offers the same in-range ref', async () => {
    const repo = GitRepo.init({ 'src/calc.py': CALC, 'notes.md': 'See @src/calc.py#L1-L99 here.\n' });
    repo.commit('two lines on top', { 'src/calc.py': 'import a\nimport b\n' + CALC });
    const session = new EditorSession(testCtx(repo.dir));
    const text = repo.read('notes.md');
    const file = path.join(repo.dir, 'notes.md');
    const notes = await driftNotes({ path: file, kind: 'markdown', text, version: 1, lines: text.split('\n'), refs: documentRefs(text, 'markdown', session.isKnownAlias, file) }, session);
    expect(notes.map((n) => n.finding.fixes.map((f) => [f.title, f.edits[0]!.newText]))).toEqual([[['Move ref to @src/calc.py#L3-L8', '@src/calc.py#L3-L8']]]);
  });
});

describe('CHANGED says what happened inside the range (docs/drift.md#how-it-decides)', () => {
  const BODY = numbered('body', 23);

  it('lines inserted inside the range: counted as inserted, not as "0 of 23 lines edited"', async () => {
    const repo = GitRepo.init({ 'lib/f.py': BODY, 'notes.md': 'See @lib/f.py#L1-L23.\n' });
    const sha = repo.head().slice(0, 7);
    repo.commit('two new lines', { 'lib/f.py': BODY.replace('body 10\n', 'body 10\nnew a\nnew b\n') });
    const r = await refcatInProcess(['verify', 'refs', '--drift'], { cwd: repo.dir });
    expect(r.stdout).toContain(`  CHANGED notes.md:1: @lib/f.py#L1-L23: 2 lines inserted inside the range since ${sha} (now about @lib/f.py#L1-L25)\n`);
    expect(await driftRefs(repo.dir)).toEqual([expect.objectContaining({ status: 'changed', edited_lines: 0, inserted_lines: 2, deleted_lines: 0 })]);
  });

  it('the editor says the same', async () => {
    const repo = GitRepo.init({ 'lib/f.py': BODY, 'notes.md': 'See @lib/f.py#L1-L23.\n' });
    const sha = repo.head().slice(0, 7);
    repo.commit('two new lines', { 'lib/f.py': BODY.replace('body 10\n', 'body 10\nnew a\nnew b\n') });
    const session = new EditorSession(testCtx(repo.dir));
    const text = repo.read('notes.md');
    const file = path.join(repo.dir, 'notes.md');
    const notes = await driftNotes({ path: file, kind: 'markdown', text, version: 1, lines: text.split('\n'), refs: documentRefs(text, 'markdown', session.isKnownAlias, file) }, session);
    expect(notes.map((n) => n.finding.message)).toEqual([`CHANGED @lib/f.py#L1-L23: 2 lines inserted inside the range since ${sha} (now about @lib/f.py#L1-L25)`]);
  });

  it('lines deleted inside the range, and lines edited, each named', async () => {
    const repo = GitRepo.init({ 'lib/f.py': BODY, 'notes.md': 'See @lib/f.py#L1-L23.\nAnd @lib/f.py#L1-L9.\n' });
    const sha = repo.head().slice(0, 7);
    const now = BODY.replace('body 3\n', 'body three\n').replace('body 12\nbody 13\nbody 14\n', '').replace('body 18\n', 'body 18\nnew\n');
    repo.commit('edit, delete, insert', { 'lib/f.py': now });
    const r = await refcatInProcess(['verify', 'refs', '--drift'], { cwd: repo.dir });
    expect(r.stdout).toContain(`  CHANGED notes.md:1: @lib/f.py#L1-L23: 1 of 23 lines edited, 3 lines deleted, 1 line inserted inside the range since ${sha} (now about @lib/f.py#L1-L21)\n`);
    expect(r.stdout).toContain(`  CHANGED notes.md:2: @lib/f.py#L1-L9: 1 of 9 lines edited since ${sha} (now about @lib/f.py#L1-L9)\n`);
    // edited_lines keeps its meaning: every old line git's diff marks as changed, deleted ones included.
    expect((await driftRefs(repo.dir)).map((x) => [x.edited_lines, x.inserted_lines, x.deleted_lines])).toEqual([
      [4, 1, 3],
      [1, 0, 0],
    ]);
  });

  it('lines added right after the range are not inside it', async () => {
    const repo = GitRepo.init({ 'lib/f.py': BODY, 'notes.md': 'See @lib/f.py#L5-L9.\n' });
    repo.commit('insert after line 9, edit line 9', { 'lib/f.py': BODY.replace('body 9\n', 'body nine\nafter\n') });
    expect((await driftRefs(repo.dir)).map((x) => [x.status, x.edited_lines, x.inserted_lines, x.deleted_lines])).toEqual([['changed', 1, 0, 0]]);
  });
});
