import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { GitRepo } from '../helpers/git-repo.js';
import { refcatInProcess } from '../helpers/in-process.js';
import { tmpDir, writeFiles } from '../helpers/tmp.js';

// A malformed alias config file is the error of each alias ref that needed it; every other ref is
// still checked and the report printed in full (docs/reference.md#verify-refs).

const DOC = 'See @missing.md and `x:foo/y.py`\nand key:value.txt\n@here.md#L1\n';

type Broken = 'aliases.yaml' | 'workspace.lock.json';

/** A folder with docs/a.md, here.md and one broken config file; the file's path and the env to use. */
function setup(broken: Broken, git = false) {
  const files = { 'docs/a.md': DOC, 'here.md': 'here\n', ...(broken === 'workspace.lock.json' ? { 'workspace.lock.json': '{nope' } : {}) };
  const dir = git ? GitRepo.init(files).dir : tmpDir(files);
  const home = tmpDir({ '.sdqctl/aliases.yaml': broken === 'aliases.yaml' ? 'aliases: [oops\n' : '' });
  const config = broken === 'aliases.yaml' ? path.join(home, '.sdqctl', 'aliases.yaml') : path.join(dir, 'workspace.lock.json');
  const problem = broken === 'aliases.yaml' ? 'not valid YAML' : 'not valid JSON';
  return { dir, env: { SDQCTL_HOME: path.join(home, '.sdqctl') }, config, problem };
}

describe.each<Broken>(['aliases.yaml', 'workspace.lock.json'])('verify refs with a malformed %s', (broken) => {
  it('text: an error for each alias ref that needed it, the other refs reported as ever, exit 1', async () => {
    const { dir, env, config, problem } = setup(broken);
    const r = await refcatInProcess(['verify', 'refs', 'docs'], { cwd: dir, env });
    expect(r.code).toBe(1);
    expect(r.stderr).toBe('');
    const out = r.stdout.split('\n');
    expect(out[0]).toBe('✗ FAILED: Scanned 1 file(s), found 4 reference(s): 1 valid, 3 broken');
    expect(out.slice(1, 3)).toEqual(['  ERROR docs/a.md:1: Broken reference: @missing.md', '  ERROR docs/a.md:1: Broken reference: x:foo/y.py']);
    expect(out[3]).toMatch(new RegExp(`^    Invalid config file ${config}: ${problem} \\(.+\\)$`));
    // A word the file might define is not taken for prose while the file cannot be read.
    expect(out[4]).toBe('  ERROR docs/a.md:2: Broken reference: key:value.txt');
    expect(out[5]).toBe(out[3]);
    expect(out.slice(6)).toEqual(['']);
  });

  it('a placeholder alias is a ref too while the file cannot say it is no alias', async () => {
    const { dir, env } = setup(broken);
    writeFiles(dir, { 'docs/b.md': 'e.g. `alias:example/path.md`\n' });
    const json = JSON.parse((await refcatInProcess(['verify', 'refs', 'docs/b.md', '--json'], { cwd: dir, env })).stdout);
    expect(json.errors).toEqual([expect.objectContaining({ code: 'invalid_config', ref: 'alias:example/path.md', line: 1 })]);
  });

  it('--json: the whole report on stdout, each alias ref an invalid_config error', async () => {
    const { dir, env, config } = setup(broken);
    const r = await refcatInProcess(['verify', 'refs', 'docs', '--json'], { cwd: dir, env });
    expect(r.code).toBe(1);
    expect(r.stderr).toBe('');
    const json = JSON.parse(r.stdout);
    expect(json).toMatchObject({ passed: false, refs_found: 4, valid: 1, broken: 3 });
    expect(json.errors.map((e: { code: string; ref: string; line: number }) => [e.code, e.ref, e.line])).toEqual([
      ['not_found', '@missing.md', 1],
      ['invalid_config', 'x:foo/y.py', 1],
      ['invalid_config', 'key:value.txt', 2],
    ]);
    expect(json.errors[1].message).toContain(`Invalid config file ${config}: `);
  });

  it('--format github: an annotation per broken ref, then the summary', async () => {
    const { dir, env, config } = setup(broken);
    const r = await refcatInProcess(['verify', 'refs', 'docs', '--format', 'github'], { cwd: dir, env });
    expect(r.code).toBe(1);
    expect(r.stderr).toBe('');
    const out = r.stdout.split('\n');
    expect(out[0]).toBe('::error file=docs/a.md,line=1::Broken reference: @missing.md');
    expect(out[1]).toContain(`::error file=docs/a.md,line=1::Broken reference: x:foo/y.py%0AInvalid config file ${config}: `);
    expect(out[2]).toContain(`::error file=docs/a.md,line=2::Broken reference: key:value.txt%0AInvalid config file ${config}: `);
    expect(out.slice(3)).toEqual(['✗ FAILED: Scanned 1 file(s), found 4 reference(s): 1 valid, 3 broken', '']);
  });

  it('--drift: the other refs get their verdicts, the alias refs stay broken', async () => {
    const { dir, env } = setup(broken, true);
    const r = await refcatInProcess(['verify', 'refs', 'docs', '--drift', '--json'], { cwd: dir, env });
    expect(r.code).toBe(1);
    expect(r.stderr).toBe('');
    const json = JSON.parse(r.stdout);
    expect(json).toMatchObject({ refs_found: 4, broken: 3 });
    expect(json.errors.map((e: { code: string }) => e.code)).toEqual(['not_found', 'invalid_config', 'invalid_config']);
    // A ref without a line range is `anchored`; the alias refs, broken, are `unknown` with the
    // file's error: every ref found has an entry (docs/reference.md#drift-verdicts).
    expect(json.drift.refs.map((d: { ref: string; status: string }) => [d.ref, d.status])).toEqual([
      ['@missing.md', 'anchored'],
      ['x:foo/y.py', 'unknown'],
      ['key:value.txt', 'unknown'],
      ['@here.md#L1', 'unchanged'],
    ]);
    expect(json.drift.refs[1].reason).toBe(json.errors[1].message);
  });

  it('--fix: a moved ref beside an alias ref is rewritten, and the run reports', async () => {
    const { dir, env } = setup(broken, true);
    const repo = new GitRepo(dir);
    repo.commit('move', { 'here.md': 'new\nhere\n', 'docs/b.md': '@../here.md#L1 x:foo/y.py\n' });
    repo.commit('insert', { 'here.md': 'newer\nnew\nhere\n' });
    const r = await refcatInProcess(['verify', 'refs', 'docs/b.md', '--fix'], { cwd: dir, env });
    expect(r.code).toBe(1);
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(/^✗ FAILED: Scanned 1 file\(s\), found 2 reference\(s\): 1 valid, 1 broken; drift: .*, 1 fixed$/m);
    expect(r.stdout).toContain('  FIXED docs/b.md:1: @../here.md#L1 → @../here.md#L2\n');
    expect(repo.read('docs/b.md')).toBe('@../here.md#L2 x:foo/y.py\n');
  });
});
