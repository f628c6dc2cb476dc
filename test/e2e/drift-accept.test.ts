import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { GitRepo, numbered } from '../helpers/git-repo.js';
import { refcatInProcess } from '../helpers/in-process.js';

// A reviewer accepts a changed ref; the acceptance is a committed file, survives the doc's lines
// moving, and ends when the referenced code changes again (docs/drift.md#accepting-a-change).

const CODE = numbered('line', 12);

describe('verify refs --accept: accepting a reviewed CHANGED ref, end to end', () => {
  it('CHANGED; accepted; clean (also after the doc\'s lines move); code edited again: CHANGED again', async () => {
    const repo = GitRepo.init({ 'src/dose.py': CODE, 'docs/notes.md': '# Notes\n\nThe dose: @src/dose.py#L4-L8\nOther: @src/dose.py#L10\n' });
    repo.commit('edit one line inside the range', { 'src/dose.py': CODE.replace('line 6\n', 'line six\n') });
    const run = (...args: string[]) => refcatInProcess(['verify', 'refs', ...args], { cwd: repo.dir });

    const before = await run('--drift');
    expect(before.code).toBe(1);
    expect(before.stdout).toContain('  CHANGED docs/notes.md:3: @src/dose.py#L4-L8: 1 of 5 lines edited since');

    // --accept --dry-run lists what it would accept, and writes nothing.
    const dry = await run('--accept', '--dry-run');
    expect(dry.code).toBe(1);
    expect(dry.stdout).toContain('  WOULD ACCEPT docs/notes.md:3: @src/dose.py#L4-L8: 1 of 5 lines edited since');
    expect(dry.stdout).toContain(': would be recorded in refcat-accepted.json\n');
    expect(dry.stdout).not.toContain('CHANGED');
    expect(fs.existsSync(path.join(repo.dir, 'refcat-accepted.json'))).toBe(false);
    const dryJson = JSON.parse((await run('--accept', '--dry-run', '--json')).stdout) as { drift: { accepted: number; would_accept: number; dry_run: boolean } };
    expect([dryJson.drift.accepted, dryJson.drift.would_accept, dryJson.drift.dry_run]).toEqual([0, 1, true]);

    const accept = await run('--accept');
    expect(accept.code).toBe(0);
    expect(accept.stdout).toContain('  ACCEPTED docs/notes.md:3: @src/dose.py#L4-L8: recorded in refcat-accepted.json\n');
    expect(accept.stdout.split('\n')[0]).toMatch(/; drift: 1 unchanged, 0 moved, 0 changed, 0 deleted, 0 unknown, 0 anchored, 1 accepted$/);
    expect(JSON.parse(repo.read('refcat-accepted.json')).accepted).toEqual([
      { doc: 'docs/notes.md', ref: '@src/dose.py#L4-L8', lines: expect.stringMatching(/^sha256:[0-9a-f]{64}$/) },
    ]);
    repo.commit('accept the reviewed ref');

    const clean = await run('--drift');
    expect(clean.code).toBe(0);
    expect(clean.stdout).toBe('✓ PASSED: Scanned 1 file(s), found 2 reference(s): 2 valid, 0 broken; drift: 1 unchanged, 0 moved, 0 changed, 0 deleted, 0 unknown, 0 anchored, 1 accepted\n');

    // The doc gains lines above the ref: still accepted.
    repo.commit('intro', { 'docs/notes.md': '# Notes\n\nIntro.\nMore intro.\n\nThe dose: @src/dose.py#L4-L8\nOther: @src/dose.py#L10\n' });
    const moved = await run('--drift', '--json');
    expect(moved.code).toBe(0);
    const refs = (JSON.parse(moved.stdout) as { drift: { refs: { line: number; status: string }[] } }).drift.refs;
    expect(refs.map((r) => [r.line, r.status])).toEqual([
      [6, 'accepted'],
      [7, 'unchanged'],
    ]);

    // The referenced code changes again: CHANGED again, exit 1.
    repo.commit('edit again', { 'src/dose.py': CODE.replace('line 6\n', 'line six\n').replace('line 7\n', 'line seven\n') });
    const again = await run('--drift');
    expect(again.code).toBe(1);
    expect(again.stdout).toContain('  CHANGED docs/notes.md:6: @src/dose.py#L4-L8: 2 of 5 lines edited since');
  });
});
