import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { freshHome, REPO } from '../helpers/cli.js';
import { tmpDir, writeFiles } from '../helpers/tmp.js';

// Installing refcat the way pre-commit installs a node hook (docs/workflows.md#pre-commit), from a
// copy of this checkout, into a temp prefix: in the clone `npm install --dev --prod`, then
// `npm pack`, whose stdout pre-commit takes as the tarball's name, then `npm install -g` of that
// tarball; then the installed `refcat` runs. npm's lifecycle banners on that stdout broke it; the
// project's .npmrc (`foreground-scripts=false`) keeps them off. It spawns npm, which downloads or
// reads its cache and builds twice: minutes on a busy machine, hence the timeout.
// Then `npm install -g git+file://<clone>` into another temp prefix, which npm 10 and 11 break for
// a package built by `prepare` (npm/cli#4148): bin/prepare.mjs repairs it.

const npmCli = process.env.npm_execpath && /\.[cm]?js$/.test(process.env.npm_execpath) ? process.env.npm_execpath : null;

/** npm's own environment only: nothing of the `npm test` that runs this leaks in. */
function npmEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!/^npm_/i.test(k)) env[k] = v;
  return { ...env, NO_COLOR: '1', ...extra };
}

function npm(args: string[], cwd: string, env: NodeJS.ProcessEnv) {
  const [cmd, argv] = npmCli ? [process.execPath, [npmCli, ...args]] : ['npm', args];
  return spawnSync(cmd, argv, { cwd, env, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, shell: !npmCli && process.platform === 'win32' });
}

const npmMissing = npm(['--version'], REPO, npmEnv({})).status !== 0;

/** The files a clone of this checkout holds (tracked, plus new files not ignored). */
function copyCheckout(to: string): void {
  const listed = spawnSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: REPO, encoding: 'utf8' });
  expect(listed.status, listed.stderr).toBe(0);
  for (const rel of listed.stdout.split('\0').filter(Boolean)) {
    const from = path.join(REPO, rel);
    if (!fs.existsSync(from)) continue; // deleted in the work tree, not yet committed
    fs.mkdirSync(path.dirname(path.join(to, rel)), { recursive: true });
    fs.copyFileSync(from, path.join(to, rel));
  }
}

describe('installing the pre-commit hooks', () => {
  it('as pre-commit does it: the installed refcat runs', { timeout: 15 * 60_000 }, (ctx) => {
    if (npmMissing) ctx.skip('npm is not available: nothing here can install a node hook');
    // Its own temp folder, removed within the test's time: two node_modules take a while to delete.
    const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'refcat-install-')));
    try {
      installAndRun(root);
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });

  it('npm install -g git+file://<clone>: the installed refcat runs', { timeout: 15 * 60_000 }, (ctx) => {
    if (npmMissing) ctx.skip('npm is not available: nothing here can install from git');
    const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'refcat-install-')));
    try {
      const clone = path.join(root, 'clone');
      const prefix = path.join(root, 'prefix');
      copyCheckout(clone);
      const git = (...args: string[]) => spawnSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', '-c', 'commit.gpgsign=false', ...args], { cwd: clone, encoding: 'utf8' });
      for (const args of [['init', '-q'], ['add', '-A'], ['commit', '-q', '-m', 'clone']]) expect(git(...args).status).toBe(0);
      fs.mkdirSync(prefix);
      const global = npm(['install', '-g', '--no-audit', '--no-fund', `git+file://${clone}`], root, npmEnv({ npm_config_prefix: prefix, NPM_CONFIG_PREFIX: prefix }));
      expect(global.status, global.stderr).toBe(0);
      expect(global.stderr).not.toContain('ERESOLVE');
      // A folder, not npm's link to its temporary clone (which it deletes).
      expect(fs.lstatSync(path.join(prefix, 'lib', 'node_modules', 'refcat')).isDirectory()).toBe(true);
      runInstalled(prefix);
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});

describe('npm\'s prepare step (bin/prepare.mjs)', () => {
  // `npx refcat` in a clone installs the clone into npm's cache and runs prepare there: a dist/
  // built from the same sources is not built again (the README's quick start took 10-20 s).
  it('leaves a dist/ newer than the sources as it is, with the build tools at hand', { timeout: 5 * 60_000 }, () => {
    const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'refcat-prepare-')));
    try {
      for (const f of ['package.json', 'tsconfig.json', 'bin/prepare.mjs']) {
        fs.mkdirSync(path.dirname(path.join(root, f)), { recursive: true });
        fs.copyFileSync(path.join(REPO, f), path.join(root, f));
      }
      fs.cpSync(path.join(REPO, 'src'), path.join(root, 'src'), { recursive: true });
      // typescript and esbuild resolve, as in a clone after `npm install`.
      fs.symlinkSync(path.join(REPO, 'node_modules'), path.join(root, 'node_modules'));
      fs.mkdirSync(path.join(root, 'dist', 'bin'), { recursive: true });
      for (const f of ['dist/index.js', 'dist/bin/main.cjs']) fs.writeFileSync(path.join(root, f), '// built\n');
      const later = new Date('2100-01-01T00:00:00Z'); // after any source's time
      for (const f of ['dist/index.js', 'dist/bin/main.cjs']) fs.utimesSync(path.join(root, f), later, later);
      const r = spawnSync(process.execPath, ['bin/prepare.mjs'], { cwd: root, env: npmEnv({}), encoding: 'utf8' });
      expect(r.status, r.stderr).toBe(0);
      // Not rebuilt: a build would have replaced these stand-ins.
      expect(fs.readFileSync(path.join(root, 'dist/bin/main.cjs'), 'utf8')).toBe('// built\n');
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});

function installAndRun(root: string): void {
  const clone = path.join(root, 'clone');
  const prefix = path.join(root, 'prefix');
  copyCheckout(clone);
  // pre-commit points the global prefix at its hook environment.
  const env = npmEnv({ npm_config_prefix: prefix, NPM_CONFIG_PREFIX: prefix });

  const install = npm(['install', '--dev', '--prod', '--ignore-prepublish', '--no-progress', '--no-save'], clone, env);
  expect(install.status, install.stderr).toBe(0);
  // No peer-dependency warnings (esbuild inside vite's peer range).
  expect(install.stderr).not.toContain('ERESOLVE');

  const pack = npm(['pack'], clone, env);
  expect(pack.status, pack.stderr).toBe(0);
  const { version } = JSON.parse(fs.readFileSync(path.join(REPO, 'package.json'), 'utf8')) as { version: string };
  expect(pack.stdout.trim()).toBe(`refcat-${version}.tgz`);

  const global = npm(['install', '-g', path.join(clone, pack.stdout.trim())], clone, env);
  expect(global.status, global.stderr).toBe(0);
  // The docs that `refcat mcp --help` and the README point to come with the package.
  expect(fs.existsSync(path.join(prefix, 'lib', 'node_modules', 'refcat', 'docs', 'reference.md'))).toBe(true);
  runInstalled(prefix);
}

/** The installed `refcat` runs what the hooks run (entry `refcat validate` / `refcat verify refs`). */
function runInstalled(prefix: string): void {
  const work = tmpDir();
  writeFiles(work, { 'notes.txt': 'one\ntwo\n', 'flow.conv': 'MODEL m\nREFCAT @notes.txt#L2\nPROMPT hi\n', 'README.md': 'See @notes.txt#L1.\n' });
  const home = freshHome();
  const run = (args: string[]) =>
    spawnSync(path.join(prefix, 'bin', 'refcat'), args, { cwd: work, encoding: 'utf8', env: { PATH: process.env.PATH, HOME: home, SDQCTL_HOME: path.join(home, '.sdqctl'), NO_COLOR: '1' } });
  const extract = run(['@notes.txt#L2', '-q']);
  expect([extract.status, extract.stdout, extract.stderr]).toEqual([0, 'two\n', '']);
  const validate = run(['validate', 'flow.conv']);
  expect([validate.status, validate.stdout]).toEqual([0, '✓ flow.conv: valid\n']);
  const verify = run(['verify', 'refs', 'README.md']);
  expect(verify.status, verify.stderr).toBe(0);
}
