import fs from 'node:fs';
import path from 'node:path';
import type { Context } from '../../shared/context.js';
import { type Diagnostic, isRefcatError } from '../../shared/errors.js';
import { AliasResolver } from '../alias/resolve-aliases.js';
import { extract } from '../extract/extract.js';
import { confinementOf } from '../alias/alias-confinement.js';
import type { Confinement } from '../safe-read/confinement.js';
import type { PatternBudget } from '../regex/pattern-search.js';
import { hasGlobChars } from '../walk/glob.js';
import { READ_AT_PIN, type RefToCheck, RunVersions } from '../versions/run-versions.js';

/** What one ref check gave: the CLI's errors and warnings for it. */
export interface RefCheck {
  errors: Diagnostic[];
  warnings: Diagnostic[];
}

/** A file a cached check depended on: its mtime and size then, or null when it did not exist. */
interface Stamp {
  file: string;
  mtimeMs: number | null;
  size: number;
}

interface CachedCheck {
  check: RefCheck;
  stamps: Stamp[];
}

/**
 * The state the editor server keeps for one workspace root: the aliases (read once, again after a
 * save) and the ref checks, cached by the mtime and size of the files they read, so that a change
 * to a document re-resolves only refs not seen before (those on the lines that changed) or whose
 * target changed on disk (docs/editor.md#how-it-checks).
 */
export class EditorSession {
  /** Refs resolved on disk (cache misses), for tests and the bench. */
  resolutions = 0;
  private aliasResolver: AliasResolver | null = null;
  private confined: Confinement | null = null;
  private readonly checks = new Map<string, CachedCheck>();
  /** Files stat'ed in the current pass: a target cited many times is looked at once per check. */
  private seen = new Map<string, Stamp>();
  /** Refs at a version, read from git once until the next save (docs/editor.md#refs-at-a-version). */
  private versionRun: RunVersions | null = null;

  constructor(readonly ctx: Context) {}

  get root(): string {
    return this.ctx.cwd;
  }

  get aliases(): AliasResolver {
    return (this.aliasResolver ??= new AliasResolver(this.ctx));
  }

  /**
   * Where completion and hover may look (docs/editor.md#what-you-get): the root and the targets of
   * aliases defined outside it, judged by real paths, as `refcat mcp` is confined. A doc is
   * anyone's to write: its `@../`, `@/etc/` or a symlink leading out lists and shows nothing.
   */
  get confinement(): Confinement {
    return (this.confined ??= confinementOf(this.ctx, this.aliases));
  }

  /** Whether `name` is an alias; a malformed config file counts as no alias (it is reported on its own). */
  isKnownAlias = (name: string): boolean => {
    try {
      return this.aliases.lookup(name) !== undefined;
    } catch (err) {
      if (isRefcatError(err)) return false;
      throw err;
    }
  };

  /** Forget aliases and cached checks (a file was saved: a config file, or a target, may have changed). */
  refresh(): void {
    this.aliasResolver = null;
    this.confined = null;
    this.checks.clear();
    this.close();
  }

  /** Ends the git processes that read versions. */
  close(): void {
    this.versionRun?.close();
    this.versionRun = null;
  }

  /**
   * Reads the refs that name a version (a pinned alias, a revision a branch or tag reaches) before
   * they are checked, as extraction reads them.
   */
  async prepareVersions(refs: readonly RefToCheck[]): Promise<void> {
    const run = (this.versionRun ??= new RunVersions(this.ctx, { reachableOnly: true }));
    if (run.pending(refs)) await run.prepare(refs, this.aliases);
  }

  /** The refs read at a version so far (ExtractOptions.versions). */
  get versions(): RunVersions | undefined {
    return this.versionRun ?? undefined;
  }

  /** Start checking a document: files are looked at again (once each) from now on. */
  startPass(): void {
    this.seen = new Map();
  }

  /** Check one ref as `verify refs` does, from the cache when no file it read has changed. */
  checkRef(ref: string, searchDirs: readonly string[], budget: PatternBudget): RefCheck {
    const key = `${ref}\0${searchDirs.join('\0')}`;
    const cached = this.checks.get(key);
    if (cached && cached.stamps.every((st) => this.fresh(st))) return cached.check;
    this.resolutions++;
    const report = extract([ref], this.ctx, { searchDirs: [...searchDirs], aliases: this.aliases, checkOnly: true, patternBudget: budget, versions: this.versionRun?.prepared });
    // That a pin was read, not the checkout, is the hover's to say: a diagnostic would sit on
    // whichever ref happened to be read first.
    const check = { errors: report.errors, warnings: report.warnings.filter((w) => w.code !== READ_AT_PIN) };
    // A glob depends on folders, not files; a pattern that ran out of time may pass next time; a
    // name not found (or found twice) depends on a target its error does not name (its table is
    // cached by mtime: checking again costs a stat).
    if (!hasGlobChars(ref) && !check.errors.some((e) => UNCACHED_ERRORS.has(e.code))) {
      const files = [
        ...report.results.map((r) => r.path),
        ...report.errors.flatMap((e) => e.details.filter((d) => d.startsWith('Searched: ')).map((d) => d.slice('Searched: '.length))),
      ];
      this.checks.set(key, { check, stamps: files.map((f) => this.stamp(f)) });
    } else {
      this.checks.delete(key);
    }
    return check;
  }

  private stamp(file: string): Stamp {
    let st = this.seen.get(file);
    if (!st) this.seen.set(file, (st = stampOf(file)));
    return st;
  }

  private fresh(s: Stamp): boolean {
    const now = this.stamp(s.file);
    return now.mtimeMs === s.mtimeMs && now.size === s.size;
  }
}

const UNCACHED_ERRORS = new Set(['pattern_timeout', 'symbol_not_found', 'symbol_ambiguous']);

function stampOf(file: string): Stamp {
  try {
    const st = fs.statSync(file);
    return { file, mtimeMs: st.mtimeMs, size: st.size };
  } catch {
    return { file, mtimeMs: null, size: 0 };
  }
}

/** Folders a doc's relative ref is looked up in, as `verify refs` does: its folder, then the root. */
export function docSearchDirs(docPath: string, root: string): string[] {
  return [...new Set([path.dirname(docPath), root])];
}
