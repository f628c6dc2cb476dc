import fs from 'node:fs';
import path from 'node:path';
import { UsageError } from '../../shared/errors.js';
import { lazyRequire } from '../../shared/lazy.js';
import { gitDirectoryOf, isGitDirectory } from '../../shared/git-directory.js';

const childProcess = lazyRequire<typeof import('node:child_process')>('node:child_process');

/**
 * Where an agent may read (docs/reference.md#refcat-mcp), and whose lines a message may quote
 * (docs/reference.md#limits-and-hostile-input): the root and the alias targets, judged by real
 * paths, so `..`, an absolute path elsewhere or a symlink leading out is outside whatever its
 * spelling.
 */
export class Confinement {
  private readonly allowed: string[];
  /** With `snapshot`: the real path of each folder a file was judged in. */
  private readonly folders: Map<string, string> | null;
  /** With `snapshot`: each path's answer. */
  private readonly answers: Map<string, boolean> | null;
  /** With `snapshot`: whether each folder asked about is a git directory. */
  private readonly gitDirs: Map<string, boolean> | null;

  /**
   * `snapshot`: for one command over files that do not move meanwhile (`verify refs`), a folder's
   * real path is looked up once, a file in it costs one lstat, and a path asked again costs
   * nothing. A long-lived server
   * (`refcat mcp`) judges every path afresh: a symlink made after it started counts.
   */
  constructor(
    readonly root: string,
    aliasTargets: readonly string[] = [],
    options: { snapshot?: boolean } = {},
  ) {
    this.allowed = [root, ...aliasTargets].map(realOrSelf);
    this.folders = options.snapshot ? new Map() : null;
    this.answers = options.snapshot ? new Map() : null;
    this.gitDirs = options.snapshot ? new Map() : null;
  }

  /**
   * Whether `file` (absolute, or relative to the root) lies inside the root or an alias target,
   * and not in a git directory below it (`.git/config`, a bare repository under another name:
   * docs/reference.md#limits-and-hostile-input): those hold the checkout's credentials and
   * settings, not its files.
   */
  allows(file: string): boolean {
    const abs = path.resolve(this.root, file);
    const known = this.answers?.get(abs);
    if (known !== undefined) return known;
    const real = (this.folders && this.inKnownFolder(abs)) ?? realOrNearest(abs);
    const answer = this.allowed.some((dir) => inside(real, dir) && gitDirectoryOf(real, dir, this.isGitDir) === null);
    this.answers?.set(abs, answer);
    return answer;
  }

  /** Whether a folder is a git directory; with `snapshot`, asked once per folder. */
  private readonly isGitDir = (dir: string): boolean => {
    const known = this.gitDirs?.get(dir);
    if (known !== undefined) return known;
    const answer = isGitDirectory(dir);
    this.gitDirs?.set(dir, answer);
    return answer;
  };

  /** The real path of `abs`, a file that is not a symlink, from its folder's remembered real path; else null. */
  private inKnownFolder(abs: string): string | null {
    let stat: fs.Stats | undefined;
    try {
      stat = fs.lstatSync(abs, { throwIfNoEntry: false });
    } catch {
      return null;
    }
    if (!stat || stat.isSymbolicLink()) return null;
    const dir = path.dirname(abs);
    let real = this.folders!.get(dir);
    if (real === undefined) {
      real = realOrNearest(dir);
      this.folders!.set(dir, real);
    }
    return path.join(real, path.basename(abs));
  }

  /**
   * Whether `file` (absolute, or relative to the root) is in a `.git` folder, judged by its real
   * path: git runs what its config and hooks name, so a write there is a way to run commands.
   */
  inGitDir(file: string): boolean {
    const real = realOrNearest(path.resolve(this.root, file));
    return real.split(path.sep).includes('.git');
  }

  /**
   * Whether `file` is in the folder git runs hooks from for its repository, `.git/hooks` or what
   * `core.hooksPath` names (a tracked `.githooks/`, husky's `.husky/_`): a write there runs at the
   * next commit, before anyone reviews it. One `git rev-parse --git-path hooks` in the file's
   * nearest existing folder; no git, or no repository: false.
   */
  inHooksDir(file: string): boolean {
    const real = realOrNearest(path.resolve(this.root, file));
    let dir = path.dirname(real);
    while (!fs.existsSync(dir) && path.dirname(dir) !== dir) dir = path.dirname(dir);
    const r = childProcess().spawnSync('git', ['rev-parse', '--git-path', 'hooks'], { cwd: dir, encoding: 'utf8', timeout: 30_000 });
    const hooks = r.status === 0 ? r.stdout.replace(/\r?\n$/, '') : '';
    return hooks !== '' && inside(real, realOrNearest(path.resolve(dir, hooks)));
  }

  /**
   * Whether a config or data file refcat found by itself (workspace.lock.json, aliases.yaml,
   * refcat-accepted.json) may be read. One under the root came with the files being read and may
   * be a symlink to anything, so it is judged as a tool's argument is; one found outside the root
   * (the home folder, a lockfile above the root) is the user's own setup (docs/reference.md#refcat-mcp).
   */
  allowsFound(file: string): boolean {
    const abs = path.resolve(this.root, file);
    return !(inside(abs, this.root) || inside(abs, this.allowed[0]!)) || this.allows(abs);
  }

  /** The absolute path of `file`, or a refusal naming it. */
  checkRead(file: string): string {
    const abs = path.resolve(this.root, file);
    if (!this.allows(abs)) throw outside(file, this.root);
    return abs;
  }
}

/** What follows the name of a found file allowsFound refuses: nothing about what it leads to. */
export function leadsOutside(root: string): string {
  return `leads outside the root ${root} (not read)`;
}

export function outside(file: string, root: string): UsageError {
  return new UsageError(`Refused: ${file} is outside the root ${root} (and every alias target)`, { code: 'outside_root' });
}

function inside(file: string, dir: string): boolean {
  const rel = path.relative(dir, file);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

function realOrSelf(p: string): string {
  try {
    return fs.realpathSync(p);
  } catch {
    return path.resolve(p);
  }
}

/**
 * A missing file is judged by the real path of its nearest existing folder, and a dangling symlink
 * by what it names: whether its target exists must not change the answer.
 */
function realOrNearest(p: string): string {
  let rest = '';
  let cur = p;
  for (let links = 0; ; ) {
    try {
      return path.join(fs.realpathSync(cur), rest);
    } catch {
      const target = links < 40 ? linkTarget(cur) : null;
      if (target !== null) {
        links++;
        cur = path.resolve(path.dirname(cur), target);
        continue;
      }
      const parent = path.dirname(cur);
      if (parent === cur) return p;
      rest = path.join(path.basename(cur), rest);
      cur = parent;
    }
  }
}

function linkTarget(p: string): string | null {
  try {
    return fs.readlinkSync(p);
  } catch {
    return null;
  }
}
