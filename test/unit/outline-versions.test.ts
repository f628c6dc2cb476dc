import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { GitRepo } from '../helpers/git-repo.js';
import { refcatInProcess } from '../helpers/in-process.js';
import { pinnedWorkspace } from '../helpers/pinned-workspace.js';

/**
 * `--outline` of a file read at a version (docs/refs.md#outlines---outline): each body marker names
 * the ref that reads it, so that ref, extracted on its own (no `--at`, from the same folder),
 * prints that declaration as that version holds it, whatever the checkout or the pin hold.
 */

/** The file at the version the rows read: `parse` and `main`, each with its lines. */
const THEN = { parse: 'def parse(x):\n    a = 1\n    return x + a\n', main: 'def main():\n    print(parse(1))\n    return 0\n' };
const THEN_TEXT = `${THEN.parse}\n${THEN.main}`;
/** Later versions: the same names, other lines, other places. */
const LATER_TEXT = 'import os\n\n\ndef main():\n    return parse(2)\n\ndef parse(x):\n    b = 2\n    c = 3\n    return x + b + c\n';
const LATEST_TEXT = 'def main():\n    pass\n\ndef parse(x):\n    return -x\n';

/** A repository whose HEAD~1 holds THEN_TEXT at src/app.py, and HEAD LATER_TEXT. */
function repoOneBehind(): { cwd: string; sha: string } {
  const repo = GitRepo.init();
  const sha = repo.commit('then', { 'src/app.py': THEN_TEXT });
  repo.commit('later', { 'src/app.py': LATER_TEXT });
  return { cwd: repo.dir, sha };
}

/** A workspace whose `ext` has THEN_TEXT at v1, is pinned at a later commit and checked out at a third. */
function pinnedPastV1(): { cwd: string; sha: string } {
  let sha = '';
  const { ws } = pinnedWorkspace(
    (ext) => {
      sha = ext.commit('then', { 'mod.py': THEN_TEXT });
      ext.git('tag', 'v1');
    },
    (ext) => {
      const pin = ext.commit('pinned', { 'mod.py': LATER_TEXT });
      ext.commit('checked out', { 'mod.py': LATEST_TEXT });
      return pin;
    },
  );
  return { cwd: ws, sha };
}

interface Row {
  name: string;
  setup: () => { cwd: string; sha: string };
  /** The folder under the setup's to run in. */
  sub?: string;
  args: string[];
  /** The markers' ref head, given the full sha of the version read. */
  head: (sha: string) => string;
  /** The path the `## Outline:` header shows (`--at` shows it from the repository's root); empty: not checked. */
  shown: string;
}

const ROWS: Row[] = [
  { name: '.@REV:', setup: repoOneBehind, args: ['.@HEAD~1:src/app.py'], head: (sha) => `.@${sha}:src/app.py`, shown: 'src/app.py' },
  { name: '--at REV', setup: repoOneBehind, args: ['--at', 'HEAD~1', '@src/app.py'], head: (sha) => `.@${sha}:src/app.py`, shown: 'src/app.py' },
  { name: '--at REV from a subfolder', setup: repoOneBehind, sub: 'src', args: ['--at', 'HEAD~1', '@app.py'], head: (sha) => `.@${sha}:src/app.py`, shown: 'src/app.py' },
  { name: 'alias@REV:', setup: pinnedPastV1, args: ['ext@v1:mod.py'], head: (sha) => `ext@${sha}:mod.py`, shown: 'ext:mod.py' },
  { name: '.@REV: with --absolute', setup: repoOneBehind, args: ['.@HEAD~1:src/app.py', '--absolute'], head: (sha) => `.@${sha}:src/app.py`, shown: '' },
];

/** The refs of an outline's body markers, in order. */
function markerRefs(stdout: string): string[] {
  return [...stdout.matchAll(/⋯ \d+ lines?: (\S+)$/gm)].map((m) => m[1]!);
}

describe('--outline at a version: each body marker reads that version', () => {
  it.each(ROWS)('$name', async (row) => {
    const { cwd: base, sha } = row.setup();
    const cwd = path.join(base, row.sub ?? '');
    const r = await refcatInProcess(['--outline', ...row.args], { cwd });
    expect(r.stderr).not.toContain('Error');
    expect(r.code).toBe(0);
    const refs = markerRefs(r.stdout);
    expect(refs).toEqual([`${row.head(sha)}#parse`, `${row.head(sha)}#main`]);
    for (const [ref, lines] of [
      [refs[0]!, THEN.parse],
      [refs[1]!, THEN.main],
    ] as const) {
      const read = await refcatInProcess(['-q', ref], { cwd });
      expect(read.stderr, ref).toBe('');
      expect(read.stdout, ref).toBe(lines);
    }
    // The header says which version, as `## From:` does.
    if (row.shown) expect(r.stdout).toContain(`## Outline: ${row.shown} @${sha.slice(0, 7)}, 7 lines`);
  });

  it('--json gives the same refs in its entries', async () => {
    const { cwd, sha } = repoOneBehind();
    const r = await refcatInProcess(['--outline', '--json', '.@HEAD~1:src/app.py'], { cwd });
    expect(r.code).toBe(0);
    const entries = JSON.parse(r.stdout).refs[0].outline.entries as { ref?: string }[];
    expect(entries.flatMap((e) => (e.ref ? [e.ref] : []))).toEqual([`.@${sha}:src/app.py#parse`, `.@${sha}:src/app.py#main`]);
  });

  it('a pinned read keeps alias:path markers (they read the pin) and says the pin in its header', async () => {
    let pin = '';
    const { ws } = pinnedWorkspace(
      (ext) => void (pin = ext.commit('pinned', { 'mod.py': THEN_TEXT })),
      (ext) => {
        ext.commit('checked out', { 'mod.py': LATEST_TEXT });
        return pin;
      },
    );
    const r = await refcatInProcess(['--outline', 'ext:mod.py'], { cwd: ws });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`## Outline: ext:mod.py @${pin.slice(0, 7)}, 7 lines`);
    expect(markerRefs(r.stdout)).toEqual(['ext:mod.py#parse', 'ext:mod.py#main']);
    expect((await refcatInProcess(['-q', 'ext:mod.py#parse'], { cwd: ws })).stdout).toBe(THEN.parse);
  });
});
