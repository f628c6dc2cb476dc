// npm's `prepare` step: builds dist/ (docs/workflows.md#installing-the-command-from-git).
//
// - A dist/ newer than src/, package.json and tsconfig.json is left as it is.
// - Else, in a checkout with its devDependencies (npm ci, npm install, npm pack): `npm run build`.
// - Without them: the build runs in a temporary folder that installs the devDependencies from
//   package-lock.json, and dist/ is copied back. npm
//   10 and 11 prepare a git dependency installed with -g (`npm install -g git+https://...`) by
//   an `npm install` in its temporary clone that inherits the global flag: no devDependencies.
// - That same `npm install` links the clone into the global folder, and npm then unpacks the
//   package through the link into the clone, which it deletes: a `refcat` pointing nowhere
//   (npm/cli#4148, #8440; npm 12 no longer leaks the flag). When the global folder's entry is a
//   link to npm's temporary clone, it becomes a folder holding the production dependencies, where
//   npm then unpacks the package.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
const built = [path.join(root, 'dist', 'index.js'), path.join(root, 'dist', 'bin', 'main.cjs')];
const npmCli = /\.[cm]?js$/.test(process.env.npm_execpath ?? '') ? process.env.npm_execpath : null;

// What the outer npm leaked about where and what to install: the inner installs choose for themselves.
const LEAKED = /^npm_config_(global|location|prefix|global_prefix|local_prefix|omit|include|production|only|also|dev|optional|ignore_scripts|dry_run|package_lock_only|package_lock|save|save_.*|workspaces?|include_workspace_root|install_links|install_strategy|global_style|legacy_bundling|force|bin_links|audit|fund)$/i;
const cleanEnv = Object.fromEntries(Object.entries(process.env).filter(([k]) => !LEAKED.test(k)));

function npm(args, cwd, env) {
  const [cmd, argv] = npmCli ? [process.execPath, [npmCli, ...args]] : ['npm', args];
  const r = spawnSync(cmd, argv, { cwd, env, stdio: ['ignore', 'inherit', 'inherit'], shell: !npmCli && process.platform === 'win32' });
  if (r.status !== 0) {
    console.error(`refcat prepare: npm ${args.join(' ')} failed in ${cwd}${r.error ? `: ${r.error.message}` : ''}`);
    process.exit(r.status || 1);
  }
}

function resolvable(name) {
  try {
    createRequire(path.join(root, 'package.json')).resolve(`${name}/package.json`);
    return true;
  } catch {
    return false;
  }
}

function newestMtime(p) {
  const st = fs.statSync(p);
  if (!st.isDirectory()) return st.mtimeMs;
  let newest = st.mtimeMs;
  for (const e of fs.readdirSync(p)) newest = Math.max(newest, newestMtime(path.join(p, e)));
  return newest;
}

function upToDate() {
  if (!built.every((f) => fs.existsSync(f))) return false;
  const sources = Math.max(...['src', 'package.json', 'tsconfig.json'].map((f) => newestMtime(path.join(root, f))));
  return Math.min(...built.map((f) => fs.statSync(f).mtimeMs)) >= sources;
}

/** Build in a temporary folder with its own devDependencies; copy dist/ back. */
function buildOutOfTree() {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'refcat-build-'));
  try {
    for (const f of ['package.json', 'package-lock.json', 'tsconfig.json', 'src', 'bin']) fs.cpSync(path.join(root, f), path.join(tmp, f), { recursive: true });
    npm(['ci', '--global=false', `--prefix=${tmp}`, '--include=dev', '--ignore-scripts', '--no-audit', '--no-fund'], tmp, cleanEnv);
    npm(['run', 'build', `--prefix=${tmp}`], tmp, cleanEnv);
    fs.rmSync(path.join(root, 'dist'), { recursive: true, force: true });
    fs.cpSync(path.join(tmp, 'dist'), path.join(root, 'dist'), { recursive: true });
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

/** The global folder's entry, when npm made it a link to its temporary clone (this folder). */
function globalLinkToHere() {
  if (!path.basename(root).startsWith('git-clone')) return null; // npm's temporary clone of a git dependency
  const prefix = process.env.npm_config_global_prefix || process.env.npm_config_prefix;
  if (!prefix) return null;
  const dest = process.platform === 'win32' ? path.join(prefix, 'node_modules', pkg.name) : path.join(prefix, 'lib', 'node_modules', pkg.name);
  try {
    return fs.lstatSync(dest).isSymbolicLink() && fs.realpathSync(dest) === fs.realpathSync(root) ? dest : null;
  } catch {
    return null;
  }
}

// A dist/ newer than every source is not built again: `npx refcat` in a clone installs the clone
// into npm's cache as a `file:` package and runs this step there, which used to rebuild it (10-20 s
// before the first answer of the README's quick start).
if (upToDate()) {
  // nothing to do
} else if (resolvable('typescript') && resolvable('esbuild')) npm(['run', 'build'], root, process.env);
else buildOutOfTree();

const dest = globalLinkToHere();
if (dest) {
  console.error(`refcat prepare: npm linked its temporary clone into ${dest} (npm/cli#4148); installing the dependencies there instead`);
  fs.unlinkSync(dest);
  fs.mkdirSync(dest, { recursive: true });
  for (const f of ['package.json', 'package-lock.json']) fs.copyFileSync(path.join(root, f), path.join(dest, f));
  npm(['ci', '--global=false', `--prefix=${dest}`, '--omit=dev', '--ignore-scripts', '--no-audit', '--no-fund'], dest, cleanEnv);
  fs.rmSync(path.join(dest, 'package-lock.json')); // npm unpacks the package here next; a tarball holds no lockfile
}
