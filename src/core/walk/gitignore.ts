import fs from 'node:fs';
import path from 'node:path';
import { lazyRequire } from '../../shared/lazy.js';
import { findUp } from '../../shared/paths.js';

const picomatch = lazyRequire<typeof import('picomatch')>('picomatch');

export interface Rule {
  negated: boolean;
  dirOnly: boolean;
  match: (relPath: string) => boolean;
}

/**
 * `.gitignore` semantics for glob expansion (docs/reference.md#globs): the `.gitignore` files from the repository
 * root (the nearest folder above with a `.git`) down to each file's folder apply, deeper files
 * last, later rules winning, `!` re-including, a trailing `/` matching folders only, a pattern with
 * an inner or leading `/` anchored to its file's folder. As in git, nothing below an ignored
 * folder can be re-included. The repository's `.git/info/exclude` applies first, as git's lowest
 * precedence source; the global excludes file (`core.excludesFile`) is not read, since finding it
 * means reading git's config chain and a user's personal ignores rarely describe the project.
 */
export class GitIgnore {
  private readonly root: string;
  /** Folders from the root down to `from` (which the user named) are never ignored as folders. */
  private readonly namedDepth: number;
  private readonly cache = new Map<string, Rule[]>();
  private readonly exclude: Rule[];

  /**
   * `from` is the folder globbing starts in; rules are looked up from its repository root, or,
   * outside a repository, from `top` (the base folder of the refs) when `from` lies below it.
   *
   * Decision: the folder a glob names is asked for, so `dist/*.js` lists dist/ even when dist/ is
   * ignored; rules still apply to what the glob walks into and to the files themselves.
   */
  constructor(from: string, top?: string) {
    const inTop = top !== undefined && !path.relative(top, from).startsWith('..');
    const repo = repoRoot(from);
    this.root = repo ?? (inTop ? top : from);
    this.exclude = repo ? readRules(excludeFile(repo)) : [];
    this.namedDepth = path.relative(this.root, from).split(path.sep).filter(Boolean).length;
  }

  /** Whether the absolute file path is ignored. */
  ignores(file: string): boolean {
    const rel = path.relative(this.root, file);
    if (rel.startsWith('..') || path.isAbsolute(rel)) return false;
    const parts = rel.split(path.sep);
    for (let i = this.namedDepth + 1; i < parts.length; i++) {
      if (this.matches(parts.slice(0, i), true)) return true;
    }
    return this.matches(parts, false);
  }

  /** Whether the absolute folder path is ignored (then nothing below it can be re-included). */
  ignoresFolder(dir: string): boolean {
    const rel = path.relative(this.root, dir);
    if (rel === '' || rel.startsWith('..') || path.isAbsolute(rel)) return false;
    const parts = rel.split(path.sep);
    for (let i = this.namedDepth + 1; i <= parts.length; i++) {
      if (this.matches(parts.slice(0, i), true)) return true;
    }
    return false;
  }

  private matches(parts: string[], isDir: boolean): boolean {
    let ignored = applyRules(this.exclude, parts.join('/'), isDir, false);
    // Rules of the .gitignore in root, root/a, root/a/b ... up to the target's parent folder.
    for (let depth = 0; depth < parts.length; depth++) {
      const dir = path.join(this.root, ...parts.slice(0, depth));
      ignored = applyRules(this.rules(dir), parts.slice(depth).join('/'), isDir, ignored);
    }
    return ignored;
  }

  private rules(dir: string): Rule[] {
    let rules = this.cache.get(dir);
    if (!rules) {
      rules = readRules(path.join(dir, '.gitignore'));
      this.cache.set(dir, rules);
    }
    return rules;
  }
}

/** One ignore file's verdict on `rel` (relative to that file's folder): the last matching rule wins. */
function applyRules(rules: Rule[], rel: string, isDir: boolean, ignored: boolean): boolean {
  for (const rule of rules) {
    if (rule.dirOnly && !isDir) continue;
    if (rule.match(rel)) ignored = !rule.negated;
  }
  return ignored;
}

function repoRoot(from: string): string | null {
  const dotGit = findUp(from, '.git');
  return dotGit === null ? null : path.dirname(dotGit);
}

/**
 * `<repo>/.git/info/exclude`; in a linked worktree `.git` is a file naming the worktree's git
 * folder, whose `commondir` names the shared one that holds `info/`.
 */
function excludeFile(repo: string): string {
  const dotGit = path.join(repo, '.git');
  try {
    if (fs.statSync(dotGit).isDirectory()) return path.join(dotGit, 'info', 'exclude');
    const gitDir = /^gitdir:\s*(.+?)\s*$/m.exec(fs.readFileSync(dotGit, 'utf8'))?.[1];
    if (!gitDir) return path.join(dotGit, 'info', 'exclude');
    const own = path.resolve(repo, gitDir);
    let common = own;
    try {
      common = path.resolve(own, fs.readFileSync(path.join(own, 'commondir'), 'utf8').trim());
    } catch {
      // A plain gitdir file (submodule): info/ lives in it.
    }
    return path.join(common, 'info', 'exclude');
  } catch {
    return path.join(dotGit, 'info', 'exclude');
  }
}

/** The rules of one ignore file (none when it cannot be read). */
export function readRules(file: string): Rule[] {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return [];
  }
  const rules: Rule[] = [];
  for (const raw of text.split(/\r?\n/)) {
    const rule = parseRule(raw);
    if (rule) rules.push(rule);
  }
  return rules;
}

export function parseRule(raw: string): Rule | null {
  let line = raw.replace(/(?<!\\)\s+$/, '');
  if (line === '' || line.startsWith('#')) return null;
  let negated = false;
  if (line.startsWith('!')) {
    negated = true;
    line = line.slice(1);
  } else if (line.startsWith('\\!') || line.startsWith('\\#')) {
    line = line.slice(1);
  }
  let dirOnly = false;
  if (line.endsWith('/')) {
    dirOnly = true;
    line = line.slice(0, -1);
  }
  if (line === '') return null;
  const anchored = line.includes('/');
  if (line.startsWith('/')) line = line.slice(1);
  // git (fnmatch) negates a class with `[!...]`; picomatch reads that `!` as a character.
  line = line.replace(/(?<!\\)\[!/g, '[^');
  const glob = anchored ? line : `**/${line}`;
  const isMatch = picomatch()(glob, { dot: true });
  // git's `logs/**` matches everything inside logs/, not logs/ itself (picomatch's does), so that
  // `!logs/keep.txt` can re-include a file there.
  const isFolder = glob.endsWith('/**') ? picomatch()(glob.slice(0, -3), { dot: true }) : null;
  return { negated, dirOnly, match: (rel) => isMatch(rel) && !isFolder?.(rel) };
}
