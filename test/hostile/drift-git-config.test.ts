import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { GitRepo, numbered } from '../helpers/git-repo.js';
import { refcatInProcess } from '../helpers/in-process.js';
import { tmpDir } from '../helpers/tmp.js';

// A repository's own config (.git/config, which a checkout script or a hostile archive may set)
// names programs git would run: an fsmonitor hook, textconv and filter drivers. `--drift` and
// `--fix` run git so that it executes none of them (docs/reference.md#limits-and-hostile-input).

/** Arm `repo` with every program-running setting, each touching its own marker in `marks`. */
function arm(repo: GitRepo, marks: string): void {
  const hook = path.join(marks, 'fsmonitor-hook.sh');
  fs.writeFileSync(hook, `#!/bin/sh\ntouch '${marks}/fsmonitor'\n`, { mode: 0o755 });
  const set = (key: string, value: string) => repo.git('config', key, value);
  set('core.fsmonitor', hook);
  set('filter.evil.clean', `touch '${marks}/clean'; cat`);
  set('filter.evil.smudge', `touch '${marks}/smudge'; cat`);
  set('filter.evil.required', 'true');
  set('filter.proc.process', `touch '${marks}/process'`);
  set('diff.evil.textconv', `touch '${marks}/textconv'; cat`);
  set('diff.evil.command', `touch '${marks}/extdiff'`);
}

const ATTRIBUTES = '*.js filter=evil diff=evil\n*.md filter=evil diff=evil\n*.txt filter=proc\n';

describe('--drift and --fix: git executes nothing a repository config names', () => {
  it('in the scanned repository: no fsmonitor, textconv, clean or process filter ran, and the verdicts stand', async () => {
    const marks = tmpDir();
    const repo = GitRepo.init({ '.gitattributes': ATTRIBUTES, 'lib/x.js': numbered('x', 30), 'n.txt': 'x\n', 'docs/a.md': 'See @lib/x.js#L4-L5.\n' });
    repo.commit('insert', { 'lib/x.js': 'top\n' + numbered('x', 30) });
    arm(repo, marks);
    // Uncommitted edits make git read the working tree (blame, diff against the working tree).
    repo.write({ 'lib/x.js': 'top\n' + numbered('x', 30) + 'tail\n', 'docs/a.md': 'See @lib/x.js#L4-L5.\nMore.\n', 'n.txt': 'y\n' });
    const r = await refcatInProcess(['verify', 'refs', '--fix', 'docs'], { cwd: repo.dir });
    expect(r.stderr).toBe('');
    expect(r.stdout).toContain('FIXED docs/a.md:1: @lib/x.js#L4-L5 → @lib/x.js#L5-L6');
    expect(fs.readdirSync(marks).sort()).toEqual(['fsmonitor-hook.sh']);
  });

  it('in an alias target repository pinned by nothing: nothing ran there either', async () => {
    const marks = tmpDir();
    const ext = GitRepo.init({ '.gitattributes': ATTRIBUTES, 'lib/x.js': numbered('x', 30) });
    const ws = GitRepo.init({ 'docs/a.md': 'See ext:lib/x.js#L4-L5.\n' });
    ext.day = ws.day + 1;
    ext.commit('insert', { 'lib/x.js': 'top\n' + numbered('x', 30) });
    arm(ext, marks);
    ext.write({ 'lib/x.js': 'top\n' + numbered('x', 30) + 'tail\n' });
    const r = await refcatInProcess(['verify', 'refs', '--drift', '--alias', `ext=${ext.dir}`, 'docs'], { cwd: ws.dir });
    expect(r.stdout).toContain('MOVED docs/a.md:1: ext:lib/x.js#L4-L5 → ext:lib/x.js#L5-L6');
    expect(fs.readdirSync(marks).sort()).toEqual(['fsmonitor-hook.sh']);
  });
});
