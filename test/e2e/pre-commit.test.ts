import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { REPO } from '../helpers/cli.js';
import { tmpDir, writeFiles } from '../helpers/tmp.js';

// The hooks of .pre-commit-hooks.yaml, installed by pre-commit itself (`try-repo` builds refcat
// from this checkout in its own node environment) and run on a commit that touches only a part
// of a workflow (docs/workflows.md#pre-commit). .ci/run installs pre-commit (Debian's package);
// outside CI, this is skipped when pre-commit is not on PATH.
const hasPreCommit = spawnSync('pre-commit', ['--version'], { encoding: 'utf8' }).status === 0;
const why = hasPreCommit ? '' : ' (skipped: pre-commit is not on PATH; apt-get install pre-commit)';

const MAIN = 'ALIAS loop=../loop\nINCLUDE ../parts/part.conv\nPROMPT go\n';

describe.skipIf(!hasPreCommit && !process.env.CI)(`pre-commit try-repo: a commit that touches only a part${why}`, () => {
  // try-repo installs the hooks afresh on every call (its own temporary store: npm install, then
  // the build), a minute or more each: so each test is one call that runs both hooks.
  const home = tmpDir();
  // The machine's own settings (a proxy's CA for npm) pass through; git and npm see a fresh home.
  const inherited = Object.entries(process.env).filter(([k]) => !/^(GIT_|PRE_COMMIT|npm_)/i.test(k));
  const env: NodeJS.ProcessEnv = {
    ...Object.fromEntries(inherited),
    HOME: home,
    NO_COLOR: '1',
    GIT_AUTHOR_NAME: 't',
    GIT_AUTHOR_EMAIL: 't@example.com',
    GIT_COMMITTER_NAME: 't',
    GIT_COMMITTER_EMAIL: 't@example.com',
  };

  /** A repository holding a workflow and its part, all committed. */
  function repo(main = MAIN): string {
    const dir = tmpDir({ 'flows/main.conv': main, 'parts/part.conv': 'REFCAT loop:Sources/A.swift#L1\n', 'loop/Sources/A.swift': 'let a = 1\nlet b = 2\n' });
    git(dir, 'init', '-q', '.');
    git(dir, 'add', '-A');
    git(dir, 'commit', '-q', '--no-verify', '-m', 'init');
    return dir;
  }

  function git(cwd: string, ...args: string[]): void {
    const r = spawnSync('git', args, { cwd, env, encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`);
  }

  /** Stage `files` and run every hook of this checkout on the staged files, as a commit would. */
  function tryHooks(dir: string, files: Record<string, string>) {
    writeFiles(dir, files);
    git(dir, 'add', '-A');
    const r = spawnSync('pre-commit', ['try-repo', REPO, '--verbose'], { cwd: dir, env, encoding: 'utf8' });
    const out = r.stdout + r.stderr;
    if (/An unexpected error has occurred/.test(out)) throw new Error(`pre-commit could not install the hooks:\n${out}`);
    return { code: r.status, out };
  }

  it('the workflow valid: both hooks pass, verify refs in one run for all the files (require_serial)', () => {
    const docs = Object.fromEntries(Array.from({ length: 8 }, (_, i) => [`docs/d${i}.md`, 'See @loop/Sources/A.swift#L1.\n']));
    const r = tryHooks(repo(), { ...docs, 'parts/part.conv': 'REFCAT loop:Sources/A.swift#L1-L2\n' });
    expect(r.out).toMatch(/refcat validate\.+Passed/);
    expect(r.out).toMatch(/refcat verify refs\.+Passed/);
    // --verbose shows each hook's output: one summary for the nine files, not one per process.
    expect(r.out.match(/PASSED: Scanned \d+ file\(s\)/g)).toEqual(['PASSED: Scanned 9 file(s)']);
    expect(r.out.match(/✓ flows\/main\.conv: valid\n {2}parts\/part\.conv: checked as part of flows\/main\.conv\n/g)).toHaveLength(1);
    expect(r.code).toBe(0);
  }, 900_000);

  it('the workflow invalid: the part fails with it, in one report', () => {
    const r = tryHooks(repo(MAIN.replace('PROMPT go\n', '')), { 'parts/part.conv': 'REFCAT loop:Sources/A.swift#L1-L2\n' });
    expect(r.out).toMatch(/refcat validate\.+Failed/);
    expect(r.out.match(/✗ flows\/main\.conv: 1 error\n {2}parts\/part\.conv: checked as part of flows\/main\.conv\n/g)).toHaveLength(1);
    expect(r.out.match(/No PROMPT directives found/g)).toHaveLength(1);
    // The part's refs are fine: the workflow's ALIAS resolves them.
    expect(r.out).toMatch(/refcat verify refs\.+Passed/);
    expect(r.code).toBe(1);
  }, 900_000);
});
