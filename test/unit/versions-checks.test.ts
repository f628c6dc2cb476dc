import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runTool, TOOLS } from '../../src/core/agents/mcp-tools.js';
import { findDocRefs } from '../../src/core/doc-refs/find-doc-refs.js';
import { pinnedWorkspace } from '../helpers/pinned-workspace.js';
import { refcatInProcess } from '../helpers/in-process.js';
import { testCtx, tmpDir } from '../helpers/tmp.js';

const realGit = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();

/** A workspace whose lockfile pins `ext` (externals/ext) at `pin`; the clone's commits are made by `build`. */
const workspace = pinnedWorkspace;

/** A clone checked out one commit past its pin: `only-pin.txt` exists only at the pin, `only-head.txt` only in the checkout. */
function lagging() {
  let c1 = '';
  const made = workspace((ext) => {
    c1 = ext.commit('c1', { 'f.txt': 'one\ntwo\n', 'only-pin.txt': 'p\n' });
    ext.git('rm', '-q', 'only-pin.txt');
    ext.commit('c2', { 'f.txt': 'ONE\nTWO\n', 'only-head.txt': 'h\n' });
  }, () => c1);
  return { ...made, c1 };
}

const run = (ws: string, ...args: string[]) => refcatInProcess(args, { cwd: ws });

function shim(): { env: Record<string, string>; count: () => number } {
  const bin = tmpDir();
  const log = path.join(bin, 'log');
  fs.writeFileSync(path.join(bin, 'git'), `#!/bin/sh\necho "$*" >> "$SHIM_LOG"\nexec "$REAL_GIT" "$@"\n`, { mode: 0o755 });
  const env = { PATH: `${bin}${path.delimiter}${process.env.PATH ?? ''}`, SHIM_LOG: log, REAL_GIT: realGit };
  return { env, count: () => (fs.existsSync(log) ? fs.readFileSync(log, 'utf8').trim().split('\n').length : 0) };
}

describe('verify refs reads the version extraction reads', () => {
  it('a pinned alias is judged at the pin, with the warning in JSON warnings; --strict is not failed by it; --worktree judges the checkout', async () => {
    const { ws, c1 } = lagging();
    fs.writeFileSync(path.join(ws, 'doc.md'), '# Doc\n\nSee ext:f.txt#L2, ext:only-pin.txt and ext:only-head.txt.\n');
    const r = await run(ws, 'verify', 'refs', 'doc.md', '--json', '--strict');
    expect(r.code).toBe(1);
    const out = JSON.parse(r.stdout);
    // f.txt has two lines at the pin (one in the checkout); only-pin.txt is there; only-head.txt is not.
    expect(out.errors.map((e: { ref: string }) => e.ref)).toEqual(['ext:only-head.txt']);
    expect(out.errors[0].details.join('\n')).toContain(`Not in commit ${c1.slice(0, 7)}`);
    expect(out.warnings).toEqual([expect.objectContaining({ code: 'pin_differs' })]);
    // Only the broken ref fails --strict, not the warning that the pin was read.
    fs.writeFileSync(path.join(ws, 'doc.md'), '# Doc\n\nSee ext:f.txt#L2 and ext:only-pin.txt.\n');
    const ok = await run(ws, 'verify', 'refs', 'doc.md', '--strict');
    expect(ok.code).toBe(0);
    const w = await run(ws, 'verify', 'refs', 'doc.md', '--worktree', '--json');
    expect(w.code).toBe(1);
    expect(JSON.parse(w.stdout).errors.map((e: { ref: string }) => e.ref)).toEqual(['ext:only-pin.txt']);
    expect((await run(ws, 'verify', 'refs', 'doc.md', '--worktree', '--pinned')).code).toBe(2);
  });

  it('revision refs in a doc are read at their revision; an unknown revision is broken; prose that looks like one stays prose', async () => {
    let c1 = '';
    const { ws } = workspace((ext) => {
      c1 = ext.commit('c1', { 'f.txt': 'one\ntwo\n' });
      ext.git('tag', 'v1.0.2');
      ext.commit('c2', { 'f.txt': 'one\n' });
    }, () => undefined);
    const doc = [
      '# Doc',
      '',
      `Read ext@${c1.slice(0, 7)}:f.txt#L2 and ext@v1.0.2:f.txt#L2 (a tag shaped like an e-mail address).`,
      'Clone git@github.com:org/repo.git or write to bob@example.com:notes.md.',
      'Broken: ext@nosuch:f.txt.',
    ].join('\n');
    fs.writeFileSync(path.join(ws, 'doc.md'), doc + '\n');
    const r = await run(ws, 'verify', 'refs', 'doc.md', '--json');
    const out = JSON.parse(r.stdout);
    expect(out.refs_found ?? out.refsFound ?? out.summary?.refs).toBeDefined();
    expect(out.errors.map((e: { ref: string; code: string }) => [e.ref, e.code])).toEqual([['ext@nosuch:f.txt', 'unknown_revision']]);
    expect(r.code).toBe(1);
  });

  it('--suggest-fixes proposes the pinned tree\'s files for a pinned alias, the checkout\'s with --worktree', async () => {
    let pin = '';
    const { ws } = workspace((ext) => {
      pin = ext.commit('c1', { 'src/moved/a.txt': 'a\n' });
      ext.git('mv', 'src/moved', 'src/later');
      ext.commit('c2');
    }, () => pin);
    fs.writeFileSync(path.join(ws, 'doc.md'), '# Doc\n\nSee ext:src/a.txt.\n');
    const r = JSON.parse((await run(ws, 'verify', 'refs', 'doc.md', '--suggest-fixes', '--json')).stdout);
    expect(r.errors[0].suggestions).toEqual(['ext:src/moved/a.txt']);
    const w = JSON.parse((await run(ws, 'verify', 'refs', 'doc.md', '--suggest-fixes', '--json', '--worktree')).stdout);
    expect(w.errors[0].suggestions).toEqual(['ext:src/later/a.txt']);
  });

  it('a snippet citing a pinned alias is compared with the pinned lines', async () => {
    const { ws } = lagging();
    fs.writeFileSync(path.join(ws, 'doc.md'), '# Doc\n\n```text\n# ext:f.txt#L1-L2\none\ntwo\n```\n');
    const r = await run(ws, 'verify', 'refs', 'doc.md', '--json');
    const out = JSON.parse(r.stdout);
    expect(out.errors).toEqual([]);
    expect(out.snippets.stale).toBe(0);
    expect(r.code).toBe(0);
    const w = await run(ws, 'verify', 'refs', 'doc.md', '--json', '--worktree');
    expect(w.code).toBe(1);
    expect(JSON.parse(w.stdout).snippets.stale).toBe(1);
  });

  it('many refs in many docs into one pinned repository start at most 3 git processes', async () => {
    let c1 = '';
    const files: Record<string, string> = {};
    for (let i = 0; i < 20; i++) files[`f${i}.txt`] = `file ${i}\n`;
    const { ws } = workspace((ext) => {
      c1 = ext.commit('c1', files);
      ext.commit('c2', { 'f0.txt': 'changed\n' });
    }, () => c1);
    fs.mkdirSync(path.join(ws, 'docs'));
    for (let d = 0; d < 5; d++) fs.writeFileSync(path.join(ws, 'docs', `d${d}.md`), Object.keys(files).map((f) => `- ext:${f}#L1`).join('\n') + '\n');
    const counted = shim();
    const r = await refcatInProcess(['verify', 'refs', 'docs'], { cwd: ws, env: counted.env });
    expect(r.code).toBe(0);
    expect(counted.count()).toBeGreaterThan(0);
    expect(counted.count()).toBeLessThanOrEqual(3);
  });
});

describe('validate reads the version extraction reads', () => {
  it('a workflow\'s refs into a pinned alias are judged at the pin; --worktree judges the checkout', async () => {
    const { ws } = lagging();
    fs.writeFileSync(path.join(ws, 'flow.conv'), 'PROMPT Look.\nREFCAT ext:f.txt#L2\nREFCAT ext:only-pin.txt\nCONTEXT ext:only-pin.txt\n');
    const r = await run(ws, 'validate', 'flow.conv', '--json', '--strict');
    expect(r.stdout).not.toContain('not_found');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('pin_differs');
    const w = await run(ws, 'validate', 'flow.conv', '--worktree');
    expect(w.code).toBe(1);
  });

  it('a revision ref in a workflow is read at its revision', async () => {
    let c1 = '';
    const { ws } = workspace((ext) => {
      c1 = ext.commit('c1', { 'f.txt': 'one\ntwo\n', 'gone.txt': 'g\n' });
      ext.git('rm', '-q', 'gone.txt');
      ext.commit('c2', { 'f.txt': 'one\n' });
    }, () => undefined);
    fs.writeFileSync(path.join(ws, 'flow.conv'), `PROMPT Look.\nREFCAT ext@${c1}:gone.txt\n`);
    const r = await run(ws, 'validate', 'flow.conv');
    expect(r.stdout + r.stderr).not.toContain('unsupported');
    expect(r.code).toBe(0);
    fs.writeFileSync(path.join(ws, 'flow.conv'), `PROMPT Look.\nREFCAT ext@HEAD:gone.txt\n`);
    expect((await run(ws, 'validate', 'flow.conv')).code).toBe(1);
  });
});

describe('revision refs in docs', () => {
  const known = (name: string) => name === 'git' || name === 'ext' || name === 'trio';
  it.each([
    ['ext@4319ce5:f.txt#L1-L2', ['ext@4319ce5:f.txt#L1-L2']],
    ['see trio@v0.2.5:Trio/A.swift, then', ['trio@v0.2.5:Trio/A.swift']],
    ['(.@HEAD~1:src/x.ts)', ['.@HEAD~1:src/x.ts']],
    ['`ext@main:docs/a.md#install`', ['ext@main:docs/a.md']],
    ['foo@v1:a/b.md (foo is no alias)', []],
    ['git@github.com:org/repo.git', []],
    ['bob@example.com:notes.md', []],
    ['x.ext@v1:f.txt', []],
  ])('%s', (line, refs) => {
    expect(findDocRefs(line + '\n', { markdown: true, isKnownAlias: known }).map((r) => r.ref)).toEqual(refs);
  });
});

describe('refcat mcp reads versions as extraction does', () => {
  const tool = (name: string) => TOOLS.find((t) => t.name === name)!;

  it('a pinned alias at its pin; a revision a branch or tag reaches is read; one none reaches is refused with a one-line reason', async () => {
    let c1 = '';
    let dangling = '';
    const { ws, ext } = workspace((ext) => {
      c1 = ext.commit('c1', { 'f.txt': 'one\ntwo\n' });
      ext.commit('c2', { 'f.txt': 'ONE\nTWO\n' });
      // A commit no branch or tag reaches: made, then dropped from the branch.
      dangling = ext.commit('secret', { 'f.txt': 'secret\n' });
      ext.git('reset', '-q', '--hard', 'HEAD~1');
    }, () => c1);
    ext.git('tag', 'v1', c1);
    const agent = { ctx: testCtx(ws), store: path.join(ws, '.store') };
    const pinned = await runTool(tool('extract'), { refs: ['ext:f.txt#L1'] }, agent);
    expect(pinned.isError).toBe(false);
    expect(pinned.text).toContain('1 | one\n');
    for (const ref of [`ext@${c1}:f.txt#L2`, 'ext@v1:f.txt#L2', 'ext@main~1:f.txt#L2']) {
      const r = await runTool(tool('extract'), { refs: [ref] }, agent);
      expect(r.isError, ref).toBe(false);
      expect(r.text).toContain('2 | two\n');
    }
    const refused = await runTool(tool('extract'), { refs: [`ext@${dangling}:f.txt`] }, agent);
    expect(refused.isError).toBe(true);
    expect(refused.text).not.toContain('secret\n');
    expect(refused.text).toMatch(/no branch or tag of .* reaches/);
    // The CLI reads any commit of the clone.
    expect((await run(ws, `ext@${dangling}:f.txt`)).stdout).toContain('secret');
    // verify_refs through the server judges at the pin and refuses the same revision.
    fs.writeFileSync(path.join(ws, 'doc.md'), `# Doc\n\next@${c1.slice(0, 8)}:f.txt#L2 and ext@${dangling.slice(0, 8)}:f.txt\n`);
    const verified = await runTool(tool('verify_refs'), { paths: ['doc.md'] }, agent);
    expect(verified.text).toContain('unreachable_revision');
    expect(JSON.parse(verified.text)).toMatchObject({ valid: 1, broken: 1 });
  });
});

