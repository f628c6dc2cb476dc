import fs from 'node:fs';
import path from 'node:path';
import { findUp } from '../../shared/paths.js';
import { MAX_TEXT_FILE_BYTES } from '../safe-read/read-text-file.js';
import { compileGlob, type GlobMatcher, MAX_GLOB_CHARS } from './glob-match.js';
import { holdsAny } from '../regex/regex-nfa.js';

export interface Rule {
  negated: boolean;
  dirOnly: boolean;
  match: (relPath: string) => boolean;
  /** What `match` tests first (it matches only when this does). */
  source?: GlobMatcher;
}

/**
 * `.gitignore` semantics for glob expansion (docs/reference.md#globs): the `.gitignore` files from the repository
 * root (the nearest folder above with a `.git`) down to each file's folder apply, deeper files
 * last, later rules winning, `!` re-including, a trailing `/` matching folders only, a pattern with
 * an inner or leading `/` anchored to its file's folder. As in git, nothing below an ignored
 * folder can be re-included. The repository's `.git/info/exclude` applies first, as git's lowest
 * precedence source; the global excludes file (`core.excludesFile`) is not read, since finding it
 * means reading git's config chain and a user's personal ignores rarely describe the project.
 *
 * A walk asks through scopes (`scope()`, then `IgnoreScope.child()` folder by folder): each
 * folder's rules are compiled once, and an entry is matched by name, without path operations.
 */
export class GitIgnore {
  private readonly root: string;
  /** Folders from the root down to `from` (which the user named) are never ignored as folders. */
  private readonly namedDepth: number;
  private readonly cache = new Map<string, RuleSet>();
  private readonly exclude: RuleSet;
  private top: IgnoreScope | undefined;

  /**
   * `from` is the folder globbing starts in; rules are looked up from its repository root, or,
   * outside a repository, from `top` (the base folder of the refs) when `from` lies below it.
   *
   * Decision: the folder a glob names is asked for, so `dist/*.js` lists dist/ even when dist/ is
   * ignored; rules still apply to what the glob walks into and to the files themselves.
   */
  constructor(
    private readonly from: string,
    top?: string,
  ) {
    const inTop = top !== undefined && !path.relative(top, from).startsWith('..');
    const repo = repoRoot(from);
    this.root = repo ?? (inTop ? top : from);
    this.exclude = new RuleSet(repo ? readRules(excludeFile(repo)) : []);
    this.namedDepth = path.relative(this.root, from).split(path.sep).filter(Boolean).length;
  }

  /**
   * The rules in force inside `from` (the folder the constructor got): what a walk that starts
   * there asks, entering folders with `IgnoreScope.child()`. Never ignores anything when `from`
   * lies outside the root.
   */
  scope(): IgnoreScope {
    if (this.top) return this.top;
    const rel = path.relative(this.root, this.from);
    if (rel.startsWith('..') || path.isAbsolute(rel)) return (this.top = new IgnoreScope(EMPTY, [], '', true));
    let scope = new IgnoreScope(this.exclude, [], '', false).withRules(this.rules(this.root));
    let dir = this.root;
    for (const part of rel === '' ? [] : rel.split(path.sep)) {
      dir = path.join(dir, part);
      scope = scope.child(part).withRules(this.rules(dir));
    }
    return (this.top = scope);
  }

  /** Whether the absolute file path is ignored. */
  ignores(file: string): boolean {
    return this.verdict(file, false);
  }

  /** Whether the absolute folder path is ignored (then nothing below it can be re-included). */
  ignoresFolder(dir: string): boolean {
    return this.verdict(dir, true);
  }

  /** The path's verdict, each of its folders below `from` asked first, as a walk would. */
  private verdict(target: string, isDir: boolean): boolean {
    const rel = path.relative(this.root, target);
    if (rel === '' || rel.startsWith('..') || path.isAbsolute(rel)) return false;
    const parts = rel.split(path.sep);
    let scope = new IgnoreScope(this.exclude, [], '', false).withRules(this.rules(this.root));
    let dir = this.root;
    for (let i = 0; i < parts.length - 1; i++) {
      if (i + 1 > this.namedDepth && scope.ignores(parts[i]!, true)) return true;
      dir = path.join(dir, parts[i]!);
      scope = scope.child(parts[i]!).withRules(this.rules(dir));
    }
    if (isDir && parts.length <= this.namedDepth) return false;
    return scope.ignores(parts[parts.length - 1]!, isDir);
  }

  private rules(dir: string): RuleSet {
    let rules = this.cache.get(dir);
    if (!rules) {
      rules = RuleSet.of(readRules(path.join(dir, '.gitignore')));
      this.cache.set(dir, rules);
    }
    return rules;
  }
}

/**
 * The ignore rules in force inside one folder: `.git/info/exclude`, then the `.gitignore` of every
 * folder from the root down to this one. Immutable: `child()` and `withRules()` make new scopes.
 */
export class IgnoreScope {
  constructor(
    private readonly exclude: RuleSet,
    /** The non-empty rule sets in force, shallowest first, with where their folder's path ends in `dir`. */
    private readonly levels: readonly { rules: RuleSet; cut: number }[],
    /** This folder relative to the root, `/`-separated ('' at the root). */
    private readonly dir: string,
    /** Outside the root: nothing is ignored. */
    private readonly none: boolean,
  ) {}

  /**
   * Whether the entry `name` of this folder is ignored. Its folders are not asked again: a walk
   * never enters an ignored folder, and nothing below one can be re-included.
   */
  ignores(name: string, isDir: boolean): boolean {
    if (this.none) return false;
    const rel = this.dir === '' ? name : `${this.dir}/${name}`;
    // The last rule that matches decides: deeper files first, each from its last rule.
    for (let i = this.levels.length - 1; i >= 0; i--) {
      const { rules, cut } = this.levels[i]!;
      const verdict = rules.lastMatch(cut === 0 ? rel : rel.slice(cut), isDir);
      if (verdict !== null) return verdict;
    }
    return this.exclude.lastMatch(rel, isDir) ?? false;
  }

  /** The scope inside the sub-folder `name` (before that folder's own .gitignore: see withRules()). */
  child(name: string): IgnoreScope {
    return new IgnoreScope(this.exclude, this.levels, this.dir === '' ? name : `${this.dir}/${name}`, this.none);
  }

  /** This scope with the rules of this folder's own .gitignore added (compiled once, here). */
  withRules(rules: RuleSet | readonly Rule[]): IgnoreScope {
    const set = rules instanceof RuleSet ? rules : RuleSet.of(rules);
    if (set.empty || this.none) return this;
    const cut = this.dir === '' ? 0 : this.dir.length + 1;
    return new IgnoreScope(this.exclude, [...this.levels, { rules: set, cut }], this.dir, false);
  }
}

/**
 * One ignore file's rules, compiled once: a path that holds none of the texts the rules' matches
 * need (most paths: `.log`, `node_modules`) is turned away without trying a rule.
 */
export class RuleSet {
  private readonly rules: readonly Rule[];
  private readonly needles: readonly string[] | null;
  private readonly literal: ReadonlySet<string>;
  readonly empty: boolean;

  constructor(rules: readonly Rule[]) {
    this.rules = rules;
    this.empty = rules.length === 0;
    const needles = rules.map((r) => r.source?.needles ?? null);
    this.needles = needles.every((n) => n !== null) ? [...new Set(needles.flat() as string[])] : null;
    this.literal = new Set(rules.map((r) => r.source?.glob ?? ''));
  }

  /** The set of these rules, made once for the same rules (readRules() shares them). */
  static of(rules: readonly Rule[]): RuleSet {
    let set = sets.get(rules);
    if (!set) {
      set = new RuleSet(rules);
      sets.set(rules, set);
    }
    return set;
  }

  /** `!negated` of the last rule that matches `rel` (relative to the file's folder), or null. */
  lastMatch(rel: string, isDir: boolean): boolean | null {
    if (this.empty) return null;
    if (this.needles !== null && !holdsAny(rel, this.needles) && !this.literal.has(rel)) return null;
    for (let i = this.rules.length - 1; i >= 0; i--) {
      const rule = this.rules[i]!;
      if (rule.dirOnly && !isDir) continue;
      if (rule.match(rel)) return !rule.negated;
    }
    return null;
  }
}

const sets = new WeakMap<readonly Rule[], RuleSet>();
const EMPTY = new RuleSet([]);

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
    const gitDir = /^gitdir:\s*(.+?)\s*$/m.exec(readSmallText(dotGit) ?? '')?.[1];
    if (!gitDir) return path.join(dotGit, 'info', 'exclude');
    const own = path.resolve(repo, gitDir);
    let common = own;
    // A plain gitdir file (submodule) has no commondir: info/ lives in it.
    const commondir = readSmallText(path.join(own, 'commondir'));
    if (commondir !== null) common = path.resolve(own, commondir.trim());
    return path.join(common, 'info', 'exclude');
  } catch {
    return path.join(dotGit, 'info', 'exclude');
  }
}

/** The rules of one ignore file (none when it cannot be read). */
export function readRules(file: string): readonly Rule[] {
  const text = readSmallText(file);
  if (text === null) return [];
  // Many folders hold the same .gitignore: its text is compiled once per process.
  let rules = compiled.get(text);
  if (!rules) {
    rules = text
      .split(/\r?\n/)
      .map(parseRule)
      .filter((r): r is Rule => r !== null);
    if (compiled.size < 1000) compiled.set(text, rules);
  }
  return rules;
}

const compiled = new Map<string, readonly Rule[]>();

/**
 * The text of an ignore file or a worktree's `.git` / `commondir` file, or null when there is none
 * to read. Only a regular file of at most MAX_TEXT_FILE_BYTES is read: these come with the tree,
 * from anyone, and one that is a FIFO (a read would block), a device (`-> /dev/zero` never ends) or
 * huge is taken as empty. Bytes that are not UTF-8 are decoded as `fs.readFileSync(f, 'utf8')` does.
 */
function readSmallText(file: string): string | null {
  let fd: number;
  try {
    fd = fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
  } catch {
    return null;
  }
  try {
    const stat = fs.fstatSync(fd);
    if (!stat.isFile() || stat.size > MAX_TEXT_FILE_BYTES) return null;
    return fs.readFileSync(fd, 'utf8');
  } catch {
    return null;
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * The longest rule compiled: the longest glob, less the `**\/` an unanchored rule once got (kept,
 * so that the same ignore files hold the same rules).
 */
export const MAX_RULE_CHARS = MAX_GLOB_CHARS - 3;

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
  // A rule longer than any glob refcat compiles holds no rule, as an ignore file too large to read
  // holds none (docs/reference.md#limits-and-hostile-input); `--exclude` (collect-files.ts) refuses one.
  if (line.length > MAX_RULE_CHARS) return null;
  // A rule without a slash matches a name at any depth: the last part of the path is matched
  // alone, as `**/<rule>` would match the whole path (the same verdicts, and far cheaper than
  // picomatch's `**/` prefix on every path a walk meets). Not a rule that starts with `!` (written
  // `\!`): picomatch reads a glob's leading `!` as a negation.
  if (!anchored && !line.startsWith('!')) {
    const isName = compileGlob(line, { dot: true, windows: false });
    const match = (rel: string) => isName.test(rel.slice(rel.lastIndexOf('/') + 1));
    return { negated, dirOnly, match, source: isName };
  }
  const glob = anchored ? line : `**/${line}`;
  const isMatch = compileGlob(glob, { dot: true, windows: false });
  // git's `logs/**` matches everything inside logs/, not logs/ itself (picomatch's does), so that
  // `!logs/keep.txt` can re-include a file there.
  const isFolder = glob.endsWith('/**') ? compileGlob(glob.slice(0, -3), { dot: true, windows: false }) : null;
  const match = isFolder ? (rel: string) => isMatch.test(rel) && !isFolder.test(rel) : isMatch.test;
  return { negated, dirOnly, match, source: isMatch };
}
