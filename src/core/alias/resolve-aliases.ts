import fs from 'node:fs';
import path from 'node:path';
import type { Context } from '../../shared/context.js';
import { closest } from '../../shared/did-you-mean.js';
import { ConfigError, RefError, UsageError } from '../../shared/errors.js';
import { lazyRequire } from '../../shared/lazy.js';
import { type Confinement, leadsOutside } from '../safe-read/confinement.js';
import { parseJson, textPosition } from '../safe-read/data-file-syntax.js';
import { readTextFile, TextFileError } from '../safe-read/read-text-file.js';
import { findUp, hasSdqctlDir, resolveFrom, sdqctlDir, shownPath, tildify } from '../../shared/paths.js';

/**
 * How the detail lines of an unknown-alias error start that are the same for every unknown alias
 * of a run: the aliases there are, and the other ways to define one. A report says them once
 * (docs/reference.md#aliases, output/known-aliases-once.ts).
 */
export const KNOWN_ALIASES = 'Known aliases: ';
export const OTHER_WAYS = 'Or: ';

/** Where an alias was defined, in resolution order (docs/reference.md#aliases). */
export type AliasSource = 'explicit' | 'workspace' | 'global';

export interface AliasEntry {
  name: string;
  /** Absolute root folder the alias stands for. */
  target: string;
  source: AliasSource;
  /** Human-readable origin: `--alias`, `ALIAS at flow.conv:3`, or the config file path. */
  origin: string;
  /**
   * The version a workspace lockfile pins (`repos[].ref`: a commit, branch or tag), read at that
   * version (docs/refs.md#refs-at-a-version). Other sources pin nothing.
   */
  pin?: string;
}

export interface ExplicitAlias {
  name: string;
  /** Path as written; relative paths are resolved against `base`. */
  path: string;
  base: string;
  origin: string;
}

export interface AliasResolverOptions {
  explicit?: ExplicitAlias[];
  /** Folder where the search for workspace.lock.json starts (default: ctx.cwd). */
  searchFrom?: string;
  /** `refcat mcp`: an alias file found under its root that leads outside is refused, not read. */
  confine?: Confinement;
}

const ALIAS_NAME_RE = /^[A-Za-z][A-Za-z0-9_-]*$/;
const LOCKFILE = 'workspace.lock.json';

/**
 * Resolves alias names with docs/reference.md#aliases precedence: explicit (--alias / ALIAS), then the nearest
 * workspace.lock.json, then ~/.sdqctl/aliases.yaml ($SDQCTL_HOME/aliases.yaml).
 *
 * Config files are read lazily, on the first lookup that needs them, and at most once: a plain
 * `refcat @file#L1` never touches them, and a malformed file is reported (ConfigError) exactly
 * when an alias lookup has to consult it.
 */
export class AliasResolver {
  private readonly ctx: Context;
  private readonly explicit: Map<string, AliasEntry>;
  private readonly searchFrom: string;
  private readonly confine: Confinement | undefined;
  // A malformed file is kept as its error: a docs tree asks about every `word:` it holds, and the
  // file is judged once per run, as a well-formed one is read once.
  private workspace: Map<string, AliasEntry> | ConfigError | undefined;
  private lockfile: string | null | undefined;
  private global: Map<string, AliasEntry> | ConfigError | undefined;
  /** The names list() gives, for mayBeAlias. */
  private names: Set<string> | undefined;
  /** For a fork: the resolver whose config files it shares and whose explicit names it keeps. */
  private parent: AliasResolver | undefined;

  constructor(ctx: Context, options: AliasResolverOptions = {}) {
    this.ctx = ctx;
    this.searchFrom = options.searchFrom ?? ctx.cwd;
    this.confine = options.confine;
    this.explicit = new Map();
    for (const a of options.explicit ?? []) this.addExplicit(a);
  }

  /**
   * Add (or replace) an explicit alias, e.g. from an ALIAS directive. On a fork, a name that the
   * parent defines explicitly is kept as the parent has it (the command line wins over a workflow).
   */
  addExplicit(a: ExplicitAlias): void {
    if (!ALIAS_NAME_RE.test(a.name)) {
      throw new UsageError(`Invalid alias name '${a.name}' (letters, digits, '_' and '-', starting with a letter)`);
    }
    if (a.path.length === 0) throw new UsageError(`Alias '${a.name}' has an empty path`);
    if (this.parent?.explicit.has(a.name)) return;
    this.explicit.set(a.name, {
      name: a.name,
      target: resolveFrom(a.base, a.path, this.ctx.home),
      source: 'explicit',
      origin: a.origin,
    });
  }

  /**
   * A resolver for one workflow: this resolver's aliases plus the ALIAS directives added to the
   * fork with addExplicit. The workspace and global files are read at most once for all forks.
   */
  fork(): AliasResolver {
    const child = new AliasResolver(this.ctx, { searchFrom: this.searchFrom });
    for (const [name, entry] of this.explicit) child.explicit.set(name, entry);
    child.parent = this;
    return child;
  }

  /** The entry for `name`, or undefined. Throws ConfigError for a malformed file it consults. */
  lookup(name: string): AliasEntry | undefined {
    return this.explicit.get(name) ?? this.workspaceAliases().get(name) ?? this.globalAliases().get(name);
  }

  /**
   * Root folder of `name`, or a RefError with docs/reference.md#aliases unknown-alias message (`ref` is the ref
   * being resolved, for the message).
   */
  resolve(name: string, ref: string): string {
    const entry = this.lookup(name);
    if (entry) return entry.target;
    const entries = this.list();
    const known = [...new Set(entries.map((e) => e.name))].sort();
    const typo = closest(name, known);
    const hint = typo ? ` (did you mean ${typo}?)` : '';
    throw new RefError('unknown_alias', `Unknown REFCAT alias: '${name}' in ${ref}${hint}`, ref, [
      `${KNOWN_ALIASES}${known.length > 0 ? this.bySource(entries) : '(none)'}`,
      'Define in ~/.sdqctl/aliases.yaml or use ALIAS directive',
      `${OTHER_WAYS}--alias NAME=PATH, or a workspace.lock.json in this folder or above (see: refcat aliases)`,
    ]);
  }

  /**
   * Whether an undefined `name` written as `name:file.ext` in a doc is a mistyped alias rather than
   * prose (docs/reference.md#what-verify-refs-counts-as-a-ref): the workspace sets up aliases (a
   * workspace.lock.json, or an explicit alias), or the name is a near miss of a defined one.
   */
  mayBeAlias(name: string): boolean {
    if (this.explicit.size > 0 || this.workspaceFile() !== null) return true;
    // Asked for every `name:file.ext` of a docs tree: the names are read once (their files are).
    this.names ??= new Set(this.list().map((e) => e.name));
    return closest(name, this.names) !== null;
  }

  /** `trio (workspace.lock.json); aaps, loop (~/.sdqctl/aliases.yaml)`: names by where they come from. */
  private bySource(entries: AliasEntry[]): string {
    const groups = new Map<string, string[]>();
    const seen = new Set<string>();
    for (const e of entries) {
      if (seen.has(e.name)) continue; // shadowed
      seen.add(e.name);
      const from = e.source === 'explicit' ? e.origin : e.source === 'workspace' ? shownPath(this.ctx.cwd, e.origin) : tildify(e.origin, this.ctx.home);
      groups.set(from, [...(groups.get(from) ?? []), e.name]);
    }
    return [...groups].map(([from, names]) => `${names.sort().join(', ')} (${from})`).join('; ');
  }

  /** Every alias from every source, in precedence order; shadowed entries are included. */
  list(): AliasEntry[] {
    const { entries, errors } = this.listReadable();
    if (errors[0]) throw errors[0];
    return entries;
  }

  /**
   * Like list(), but a malformed config file does not hide the other sources: its ConfigError is
   * returned beside the aliases that could be read (for `refcat aliases`).
   */
  listReadable(): { entries: AliasEntry[]; errors: ConfigError[] } {
    const errors: ConfigError[] = [];
    const read = (source: () => Map<string, AliasEntry>): AliasEntry[] => {
      try {
        return [...source().values()];
      } catch (err) {
        if (!(err instanceof ConfigError)) throw err;
        errors.push(err);
        return [];
      }
    };
    const entries = [...this.explicit.values(), ...read(() => this.workspaceAliases()), ...read(() => this.globalAliases())];
    return { entries, errors };
  }

  /** The lockfile in use, if any (for `refcat aliases`). */
  workspaceFile(): string | null {
    if (this.parent) return this.parent.workspaceFile();
    // A symlink counts even when what it names is missing: found, it is judged (and reported)
    // the same whatever it leads to.
    if (this.lockfile === undefined) this.lockfile = findUp(this.searchFrom, LOCKFILE, { links: true });
    return this.lockfile;
  }

  globalFile(): string {
    return globalAliasFile(this.ctx);
  }

  private workspaceAliases(): Map<string, AliasEntry> {
    if (this.parent) return this.parent.workspaceAliases();
    if (!this.workspace) {
      const file = this.workspaceFile();
      if (file) this.checkFound(file, file);
      this.workspace = file ? aliasesOrError(() => readLockfile(file)) : new Map();
    }
    if (this.workspace instanceof ConfigError) throw this.workspace;
    return this.workspace;
  }

  private globalAliases(): Map<string, AliasEntry> {
    if (this.parent) return this.parent.globalAliases();
    // Without a home folder there is no global alias file (a relative one would be the cwd's).
    if (!this.global && hasSdqctlDir(this.ctx)) this.checkFound(this.globalFile(), tildify(this.globalFile(), this.ctx.home));
    if (!this.global) this.global = hasSdqctlDir(this.ctx) ? aliasesOrError(() => readAliasYaml(this.globalFile(), this.ctx)) : new Map();
    if (this.global instanceof ConfigError) throw this.global;
    return this.global;
  }

  /** Refused before it is read (or looked for): the answer must not depend on what it leads to. */
  private checkFound(file: string, shown: string): void {
    if (this.confine && !this.confine.allowsFound(file)) throw new ConfigError(shown, leadsOutside(this.confine.root), { refused: true });
  }
}

/** A config file's aliases, or the ConfigError that says what is wrong with it. */
function aliasesOrError(read: () => Map<string, AliasEntry>): Map<string, AliasEntry> | ConfigError {
  try {
    return read();
  } catch (err) {
    if (err instanceof ConfigError) return err;
    throw err;
  }
}

/** Convenience for the library: a resolver for `ctx` with optional explicit aliases. */
export function resolveAliases(ctx: Context, options: AliasResolverOptions = {}): AliasResolver {
  return new AliasResolver(ctx, options);
}

export function globalAliasFile(ctx: Context): string {
  return path.join(sdqctlDir(ctx), 'aliases.yaml');
}

function readText(file: string): string {
  try {
    return readTextFile(file);
  } catch (err) {
    if (err instanceof TextFileError) throw new ConfigError(file, err.code === 'not_found' ? missing(file) : err.problem);
    throw err;
  }
}

/**
 * Why a config file found is not there to read. A lockfile or aliases.yaml that is a broken link
 * is an error, not a file missing (docs/reference.md#aliases): skipping it would leave its aliases
 * unknown, or resolve them from another source, without a word why.
 */
function missing(file: string): string {
  try {
    if (fs.lstatSync(file).isSymbolicLink()) return `a broken symbolic link (it points to ${fs.readlinkSync(file)}, which does not exist)`;
  } catch {
    // gone since it was found
  }
  return 'no such file';
}

function isLink(file: string): boolean {
  try {
    return fs.lstatSync(file).isSymbolicLink();
  } catch {
    return false;
  }
}

function readLockfile(file: string): Map<string, AliasEntry> {
  const text = readText(file);
  let data: unknown;
  try {
    data = parseJson(text);
  } catch (err) {
    throw new ConfigError(file, (err as Error).message);
  }
  if (!isRecord(data)) throw new ConfigError(file, 'top level must be an object');
  const externals = data.externals_dir ?? 'externals';
  if (typeof externals !== 'string' || externals.length === 0) {
    throw new ConfigError(file, '"externals_dir" must be a non-empty string');
  }
  const repos = data.repos ?? [];
  if (!Array.isArray(repos)) throw new ConfigError(file, '"repos" must be an array');
  const root = path.resolve(path.dirname(file), externals);
  const out = new Map<string, AliasEntry>();
  repos.forEach((repo: unknown, i) => {
    const where = `repos[${i}]`;
    if (!isRecord(repo)) throw new ConfigError(file, `${where} must be an object`);
    if (typeof repo.name !== 'string' || repo.name.length === 0) {
      throw new ConfigError(file, `${where}.name must be a non-empty string`);
    }
    const names: string[] = [];
    if (repo.alias !== undefined) {
      if (typeof repo.alias !== 'string') throw new ConfigError(file, `${where}.alias must be a string`);
      names.push(repo.alias);
    }
    if (repo.aliases !== undefined) {
      if (!Array.isArray(repo.aliases) || !repo.aliases.every((a) => typeof a === 'string')) {
        throw new ConfigError(file, `${where}.aliases must be an array of strings`);
      }
      names.push(...(repo.aliases as string[]));
    }
    names.push(repo.name);
    const target = path.join(root, repo.name);
    // `null` or "" is no pin, as an absent key.
    if (repo.ref !== undefined && repo.ref !== null && typeof repo.ref !== 'string') throw new ConfigError(file, `${where}.ref must be a string (a commit, branch or tag)`);
    const pin = typeof repo.ref === 'string' && repo.ref.length > 0 ? repo.ref : undefined;
    for (const name of names) {
      // The first repo to claim a name keeps it, as a reader scanning the file top-down expects.
      if (!out.has(name)) out.set(name, pin === undefined ? { name, target, source: 'workspace', origin: file } : { name, target, source: 'workspace', origin: file, pin });
    }
  });
  return out;
}

function readAliasYaml(file: string, ctx: Context): Map<string, AliasEntry> {
  const out = new Map<string, AliasEntry>();
  // None is none; a broken link is an error, as a lockfile's is (readText() says so).
  if (!fs.existsSync(file) && !isLink(file)) return out;
  const shown = tildify(file, ctx.home);
  const text = readText(file);
  const { data, keyAt } = parseYaml(text, shown);
  if (data === null || data === undefined) return out; // an empty file defines no aliases
  if (!isRecord(data)) throw new ConfigError(shown, "top level must be a mapping with an 'aliases' key");
  // Anything but `aliases:` at the top is a mistake (`alias:`, or names without the key), not
  // something to skip in silence.
  const stray = Object.keys(data).filter((k) => k !== 'aliases');
  if (stray.length > 0) {
    throw new ConfigError(shown, `unknown top-level key${keyAt(0, stray[0]!)} (aliases go under 'aliases:', see aliases.example.yaml)`);
  }
  const aliases = data.aliases;
  if (aliases === null || aliases === undefined) return out;
  if (!isRecord(aliases)) throw new ConfigError(shown, "'aliases' must be a mapping of name: path");
  const base = path.dirname(file);
  for (const [name, value] of Object.entries(aliases)) {
    if (!ALIAS_NAME_RE.test(name)) throw new ConfigError(shown, `invalid alias name${keyAt(1, name)} (letters, digits, '_' and '-', starting with a letter)`);
    if (typeof value !== 'string' || value.length === 0) {
      throw new ConfigError(shown, `the alias${keyAt(1, name)} must be a path string`);
    }
    out.set(name, { name, target: resolveFrom(base, value, ctx.home), source: 'global', origin: file });
  }
  return out;
}

// yaml is only needed when an alias lookup reaches the global file (STYLE 11: lazy-load).
const yaml = lazyRequire<typeof import('yaml')>('yaml');

/**
 * The file's data, and where a key of the top map (0) or of `aliases` (1) is, for messages; or a
 * ConfigError naming the first problem. Messages give positions, never content: the file may be a
 * symlink to any file (docs/reference.md#limits-and-hostile-input), and yaml's messages quote it.
 * yaml's own duplicate-key check is quadratic (20,000 aliases took seconds), so keys are checked
 * here, once each, instead; and a warning (an unknown `!tag`) is a problem of the file, not a
 * runtime warning on stderr.
 */
function parseYaml(text: string, shown: string): { data: unknown; keyAt: (map: 0 | 1, key: string) => string } {
  const { parseDocument, isMap } = yaml();
  const doc = parseDocument(text, { uniqueKeys: false });
  const problem = doc.errors[0] ?? doc.warnings[0];
  if (problem) throw new ConfigError(shown, `not valid YAML (${YAML_PROBLEMS[problem.code] ?? problem.code.toLowerCase().replaceAll('_', ' ')} at ${textPosition(text, problem.pos[0])})`);
  const offsets = [doc.contents, doc.get('aliases', true)].map((node) => {
    const seen = new Map<string, number | undefined>();
    if (!isMap(node)) return seen;
    for (const item of node.items) {
      const key = String((item.key as { value?: unknown } | null)?.value ?? item.key);
      const at = (item.key as { range?: [number, number, number] } | null)?.range?.[0];
      if (seen.has(key)) throw new ConfigError(shown, `duplicate key${at === undefined ? '' : ` at ${textPosition(text, at)}`}`);
      seen.set(key, at);
    }
    return seen;
  });
  const keyAt = (map: 0 | 1, key: string) => {
    const at = offsets[map]!.get(key);
    return at === undefined ? '' : ` at ${textPosition(text, at)}`;
  };
  return { data: doc.toJS(), keyAt };
}

/** yaml's error codes whose words say less than these. */
const YAML_PROBLEMS: Partial<Record<string, string>> = { TAG_RESOLVE_FAILED: 'unknown tag', BAD_DQ_ESCAPE: 'bad escape' };

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * Whether a doc's `name:` may start an alias ref. A name that a malformed config file might define
 * counts: its ref is checked and gets that file's error (docs/reference.md#verify-refs), where
 * taking it for prose would pass over the broken file in silence.
 */
export function aliasOrUnsure(aliases: AliasResolver): (name: string) => boolean {
  return (name) => {
    try {
      return aliases.lookup(name) !== undefined;
    } catch (err) {
      if (err instanceof ConfigError) return true;
      throw err;
    }
  };
}
