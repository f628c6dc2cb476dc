import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { GitRepo } from '../helpers/git-repo.js';
import { pinnedWorkspace } from '../helpers/pinned-workspace.js';
import { refcatInProcess } from '../helpers/in-process.js';

/** `refcat anchor` (docs/drift.md#anchoring), in-process on temp git repositories. */

const STORE = `export class Store {
  items: string[] = [];

  /** Empties the store; how many items it held. */
  save(): number {
    const n = this.items.length;
    this.items = [];
    return n;
  }
}

export function parse(text: string): string[] {
  const parts = text.split(',');
  return parts.map((p) => p.trim());
}

export function over(a: string): string;
export function over(a: number): number;
export function over(a: unknown): unknown {
  return a;
}
`;

interface AnchorJson {
  dry_run: boolean;
  refs_found: number;
  anchored: { file: string; line: number; ref: string; new_ref: string }[];
  left: number;
}

async function anchor(repo: GitRepo, ...args: string[]): Promise<{ code: number; stdout: string; stderr: string; json?: AnchorJson }> {
  const r = await refcatInProcess(['anchor', ...args], { cwd: repo.dir });
  return args.includes('--json') ? { ...r, json: JSON.parse(r.stdout) as AnchorJson } : r;
}

describe('refcat anchor', () => {
  it('rewrites a line ref of exactly one declaration (from its first line or its doc comment) into its name; every other ref stays', async () => {
    const doc = [
      'Saving: @src/store.ts#L5-L9, with its doc comment: `@src/store.ts#L4-L9`.',
      'Parsing: @src/store.ts#L12-L15',
      'Inside a function: @src/store.ts#L13-L14; two declarations: @src/store.ts#L1-L15; a pattern: @src/store.ts#/parse/',
      'An overload (its name needs ~N): @src/store.ts#L17; the last line only: @src/store.ts#L15',
      '',
    ].join('\n');
    const repo = GitRepo.init({ 'src/store.ts': STORE, 'docs/notes.md': doc, 'flow.conv': 'MODEL gpt\nREFCAT @src/store.ts#L12-L15 @src/store.ts#L2\nPROMPT look\n' });
    const r = await anchor(repo, '--json');
    expect(r.code).toBe(0);
    expect(r.json!.anchored).toEqual([
      { file: 'docs/notes.md', line: 1, ref: '@src/store.ts#L5-L9', new_ref: '@src/store.ts#Store.save' },
      { file: 'docs/notes.md', line: 1, ref: '@src/store.ts#L4-L9', new_ref: '@src/store.ts#Store.save' },
      { file: 'docs/notes.md', line: 2, ref: '@src/store.ts#L12-L15', new_ref: '@src/store.ts#parse' },
      { file: 'flow.conv', line: 2, ref: '@src/store.ts#L12-L15', new_ref: '@src/store.ts#parse' },
      { file: 'flow.conv', line: 2, ref: '@src/store.ts#L2', new_ref: '@src/store.ts#Store.items' },
    ]);
    expect([r.json!.refs_found, r.json!.left]).toEqual([10, 5]);
    expect(repo.read('docs/notes.md')).toBe(
      doc.replace('#L5-L9', '#Store.save').replace('#L4-L9', '#Store.save').replace('#L12-L15', '#parse'),
    );
    expect(repo.read('flow.conv')).toBe('MODEL gpt\nREFCAT @src/store.ts#parse @src/store.ts#Store.items\nPROMPT look\n');
    // The refs written resolve, to the declarations (doc comment included).
    const verify = await refcatInProcess(['verify', 'refs', '--json'], { cwd: repo.dir });
    expect(JSON.parse(verify.stdout)).toMatchObject({ passed: true, broken: 0 });
    // A second run changes nothing.
    const again = await anchor(repo, '--json');
    expect(again.json!.anchored).toEqual([]);
    expect(again.json!.left).toBe(10);
  });

  it('--dry-run writes nothing and says what it would do', async () => {
    const doc = 'See @src/store.ts#L12-L15\n';
    const repo = GitRepo.init({ 'src/store.ts': STORE, 'notes.md': doc });
    const r = await anchor(repo, 'notes.md', '--dry-run');
    expect(r.stdout).toBe(
      'Would anchor 1 of 1 reference by name in 1 file (0 left as written; scanned 1 file)\n  WOULD ANCHOR notes.md:1: @src/store.ts#L12-L15 → @src/store.ts#parse\n',
    );
    expect(repo.read('notes.md')).toBe(doc);
    const json = await anchor(repo, 'notes.md', '--dry-run', '--json');
    expect(json.json).toMatchObject({ dry_run: true, anchored: [{ new_ref: '@src/store.ts#parse' }], left: 0 });
    expect(repo.read('notes.md')).toBe(doc);
  });

  it("a citation's ref is anchored and its snippet left as it is (now an excerpt of the declaration with its doc comment); embedme's bare path is not", async () => {
    const snippet = STORE.split('\n').slice(4, 9).join('\n');
    const doc = '```ts\n// @src/store.ts#L5-L9\n' + snippet + '\n```\n\n```ts\n// src/store.ts#L12-L15\n' + STORE.split('\n').slice(11, 15).join('\n') + '\n```\n';
    const repo = GitRepo.init({ 'src/store.ts': STORE, 'docs/cited.md': doc });
    const r = await anchor(repo, 'docs', '--json');
    expect(r.json!.anchored.map((a) => a.new_ref)).toEqual(['@src/store.ts#Store.save']);
    expect(repo.read('docs/cited.md')).toBe(doc.replace('// @src/store.ts#L5-L9', '// @src/store.ts#Store.save'));
    const verify = JSON.parse((await refcatInProcess(['verify', 'refs', 'docs', '--json'], { cwd: repo.dir })).stdout) as { passed: boolean; snippets: Record<string, number> };
    expect(verify.passed).toBe(true);
    expect([verify.snippets.verbatim, verify.snippets.excerpt, verify.snippets.stale]).toEqual([1, 1, 0]);
  });

  it('--drift anchors a drifted ref to the declaration it was written against, not to what its lines hold now', async () => {
    const doc = 'Parsing: @src/store.ts#L12-L15\n';
    const repo = GitRepo.init({ 'src/store.ts': STORE, 'docs/notes.md': doc });
    const helper = 'export function helper(): number {\n  const a = 1;\n  return a;\n}\n\n';
    repo.commit('a helper above parse', { 'src/store.ts': STORE.replace('export function parse', helper + 'export function parse') });
    // Lines 12-15 are now exactly `helper`: read as they are now, the ref would be anchored to it.
    const plain = await anchor(repo, 'docs', '--dry-run', '--json');
    expect(plain.json!.anchored.map((a) => a.new_ref)).toEqual(['@src/store.ts#helper']);
    const drift = await anchor(repo, 'docs', '--drift', '--json');
    expect(drift.json!.anchored.map((a) => a.new_ref)).toEqual(['@src/store.ts#parse']);
    expect(repo.read('docs/notes.md')).toBe('Parsing: @src/store.ts#parse\n');
    repo.commit('anchored');
    const verify = await refcatInProcess(['verify', 'refs', 'docs', '--drift', '--strict'], { cwd: repo.dir });
    expect(verify.code).toBe(0);
  });

  it('--drift leaves a ref whose declaration is gone, and one not committed yet is anchored as the file is now', async () => {
    const repo = GitRepo.init({ 'src/store.ts': STORE, 'docs/notes.md': 'Parsing: @src/store.ts#L12-L15\n' });
    repo.commit('parse renamed', { 'src/store.ts': STORE.replace('function parse(', 'function split(') });
    repo.write({ 'docs/new.md': 'Split: @src/store.ts#L12-L15\n' });
    const r = await anchor(repo, 'docs', '--drift', '--json');
    expect(r.json!.anchored).toEqual([{ file: 'docs/new.md', line: 1, ref: '@src/store.ts#L12-L15', new_ref: '@src/store.ts#split' }]);
    expect(repo.read('docs/notes.md')).toBe('Parsing: @src/store.ts#L12-L15\n');
  });

  it('--drift: a ref sharing its line with a changed line ref waits (rewriting the line would end that verdict unreviewed)', async () => {
    const repo = GitRepo.init({ 'src/store.ts': STORE, 'docs/notes.md': 'Saving @src/store.ts#L5-L9 and a line @src/store.ts#L13\nParsing @src/store.ts#L12-L15\n' });
    repo.commit('edit parse', { 'src/store.ts': STORE.replace("split(',')", "split(';')") });
    const r = await anchor(repo, 'docs', '--drift');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('  ANCHORED docs/notes.md:2: @src/store.ts#L12-L15 → @src/store.ts#parse\n');
    expect(r.stdout).toContain('  NOT ANCHORED docs/notes.md:1: @src/store.ts#L5-L9 would become @src/store.ts#Store.save, but its line also holds a changed or deleted ref');
    expect(repo.read('docs/notes.md')).toBe('Saving @src/store.ts#L5-L9 and a line @src/store.ts#L13\nParsing @src/store.ts#parse\n');
  });

  it('a link to a doc outside the working directory and the repository is not written (exit 1)', async () => {
    const repo = GitRepo.init({ 'src/store.ts': STORE });
    const outside = path.join(path.dirname(repo.dir), `${path.basename(repo.dir)}-outside.md`);
    fs.writeFileSync(outside, `See @${path.join(repo.dir, 'src/store.ts')}#L12-L15\n`);
    fs.symlinkSync(outside, path.join(repo.dir, 'linked.md'));
    const r = await anchor(repo, 'linked.md');
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('  NOT ANCHORED linked.md: a link to ');
    expect(fs.readFileSync(outside, 'utf8')).toBe(`See @${path.join(repo.dir, 'src/store.ts')}#L12-L15\n`);
  });

  it('a doc it cannot read (a FIFO, not UTF-8) is said, not counted as scanned in silence', async () => {
    const repo = GitRepo.init({ 'src/store.ts': STORE, 'ok.md': 'See @src/store.ts#L12-L15\n' });
    fs.writeFileSync(path.join(repo.dir, 'latin1.md'), Buffer.from('caf\xe9 @src/store.ts#L12-L15\n', 'latin1'));
    execFileSync('mkfifo', [path.join(repo.dir, 'pipe.md')]);
    const r = await anchor(repo, 'ok.md', 'latin1.md', 'pipe.md', '--dry-run');
    expect([r.code, r.stdout]).toEqual([
      0,
      [
        'Would anchor 1 of 1 reference by name in 1 file (0 left as written; scanned 3 files)',
        '  WOULD ANCHOR ok.md:1: @src/store.ts#L12-L15 → @src/store.ts#parse',
        '  NOT ANCHORED pipe.md: Cannot read: pipe.md is not a regular file (a FIFO)',
        '  NOT ANCHORED latin1.md: Not scanned: latin1.md is binary or not UTF-8',
        '',
      ].join('\n'),
    ]);
    const json = await anchor(repo, 'latin1.md', '--json');
    expect(JSON.parse(json.stdout).not_read).toEqual([{ file: 'latin1.md', reason: 'Not scanned: latin1.md is binary or not UTF-8' }]);
  });

  it('a ref read at a version the checkout does not hold (a revision, a pin elsewhere) is left as written, not anchored to the checkout\'s lines', async () => {
    const V1 = 'def a():\n    return 1\n\n\ndef b():\n    return 2\n';
    const V2 = 'def z():\n    return 0\n\n\n' + V1;
    const { ws, ext } = pinnedWorkspace(
      (repo) => {
        repo.commit('v1', { 'm.py': V1 });
        repo.commit('v2', { 'm.py': V2 });
      },
      (repo) => repo.git('rev-parse', 'HEAD~1').trim(),
    );
    // Lines 1-2 are `a` at the pin and at HEAD~1, `z` in the checkout: either name would break the ref.
    fs.writeFileSync(path.join(ws, 'pinned.md'), 'See ext:m.py#L1-L2\n');
    fs.writeFileSync(path.join(ext.dir, 'rev.md'), 'See .@HEAD~1:m.py#L1-L2, now .@HEAD:m.py#L5-L6\n');
    const pinned = await refcatInProcess(['anchor', 'pinned.md', '--json'], { cwd: ws });
    expect(JSON.parse(pinned.stdout)).toMatchObject({ anchored: [], left: 1 });
    const rev = await refcatInProcess(['anchor', 'rev.md', '--json'], { cwd: ext.dir });
    // The checkout holds HEAD as it is: that ref is anchored, keeping its revision.
    expect(JSON.parse(rev.stdout)).toMatchObject({ anchored: [{ ref: '.@HEAD:m.py#L5-L6', new_ref: '.@HEAD:m.py#a' }], left: 1 });
    expect(fs.readFileSync(path.join(ws, 'pinned.md'), 'utf8')).toBe('See ext:m.py#L1-L2\n');
  });

  it('an empty path (an unset variable) is a usage error, not the whole working folder anchored', async () => {
    const doc = 'See @src/store.ts#L12-L15\n';
    const repo = GitRepo.init({ 'src/store.ts': STORE, 'notes.md': doc });
    const r = await anchor(repo, '');
    expect([r.code, r.stdout, r.stderr]).toEqual([2, '', "Error: No such file or folder: '' (an empty path; . names the current folder)\n"]);
    expect(repo.read('notes.md')).toBe(doc);
  });

  it('usage errors: a missing path (exit 2), a wrong flag (exit 2), each on one line', async () => {
    const repo = GitRepo.init({ 'src/store.ts': STORE });
    const missing = await anchor(repo, 'nope.md');
    expect(missing.code).toBe(2);
    expect(missing.stderr.trim().split('\n')).toHaveLength(1);
    expect(missing.stderr).toMatch(/^Error: .*nope\.md/);
    const flag = await anchor(repo, '--fix');
    expect(flag.code).toBe(2);
    expect(flag.stderr.trim().split('\n')).toHaveLength(1);
    expect(flag.stderr).toMatch(/^Error: unknown option '--fix'/);
  });
});
