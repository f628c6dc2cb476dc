import fs from 'node:fs';
import { GitIgnore, type IgnoreScope, readRules } from './gitignore.js';

/** Folder entries a cache holds at most (about 30 MB). */
const MAX_HELD_ENTRIES = 200_000;

/**
 * What walks learn about a tree, kept for one command: each folder's entries, each symlink's
 * target, each ignore file's rules and each ignore verdict. A `.conv` with 200 `CONTEXT` globs
 * walked the tree 200 times (and again for the "ignored files match" hint); with one cache the
 * file system is read once per folder, and each glob is matched against one listing of the files
 * a walk of its shape (root, depth, dot folders) reaches (docs/reference.md#globs). expandGlob() asks the cache exactly what it would ask the file
 * system, so a glob's matches are the same with a fresh cache or a shared one. For one command
 * over a snapshot of the tree: a folder changed during the run is seen as it was first read.
 * Memory is bounded: at most MAX_HELD_ENTRIES folder entries, and a listing of at most 100,000
 * files per walk shape (glob.ts); past that, walks read the tree again, as without a cache.
 */
export class WalkCache {
  /** Folders read so far, for tests to count. */
  folderReads = 0;
  private readonly folders = new Map<string, fs.Dirent[] | string>();
  private readonly stats = new Map<string, fs.Stats | null>();
  private readonly reals = new Map<string, string | null>();
  private readonly tops = new Map<string, IgnoreScope>();
  private readonly children = new WeakMap<IgnoreScope, Map<string, IgnoreScope>>();
  private readonly ownRules = new WeakMap<IgnoreScope, IgnoreScope>();
  private readonly verdicts = new WeakMap<IgnoreScope, Map<string, boolean>>();
  private readonly listings = new Map<string, unknown>();
  private heldEntries = 0;

  constructor(private readonly maxEntries = MAX_HELD_ENTRIES) {}

  /** What `make` lists of the tree for a walk of this shape (glob.ts), made once; null: too large to list. */
  listing<T>(shape: string, make: () => T | null): T | null {
    if (!this.listings.has(shape)) this.listings.set(shape, make());
    return this.listings.get(shape) as T | null;
  }

  /** A folder's entries, or the error code that stopped its read. */
  entries(dir: string): fs.Dirent[] | string {
    let hit = this.folders.get(dir);
    if (hit === undefined) {
      this.folderReads++;
      try {
        hit = fs.readdirSync(dir, { withFileTypes: true });
      } catch (err) {
        hit = (err as NodeJS.ErrnoException).code ?? 'error';
      }
      // A giant tree is not held whole: past the budget, folders are read again when walked again.
      if (typeof hit === 'string' || this.heldEntries + hit.length <= this.maxEntries) {
        this.folders.set(dir, hit);
        if (typeof hit !== 'string') this.heldEntries += hit.length;
      }
    }
    return hit;
  }

  /** What a path leads to (a symlink followed), or null. */
  stat(p: string): fs.Stats | null {
    let hit = this.stats.get(p);
    if (hit === undefined) {
      try {
        hit = fs.statSync(p);
      } catch {
        hit = null;
      }
      this.stats.set(p, hit);
    }
    return hit;
  }

  /** The real path, or null when it cannot be resolved. */
  realpath(p: string): string | null {
    let hit = this.reals.get(p);
    if (hit === undefined) {
      try {
        hit = fs.realpathSync(p);
      } catch {
        hit = null;
      }
      this.reals.set(p, hit);
    }
    return hit;
  }

  /** The ignore rules in force in `root`, for a walk of the refs of `base` (GitIgnore). */
  scope(root: string, base: string): IgnoreScope {
    const key = `${root}\0${base}`;
    let hit = this.tops.get(key);
    if (!hit) this.tops.set(key, (hit = new GitIgnore(root, base).scope()));
    return hit;
  }

  /** `scope.child(name)`, the same object each time. */
  child(scope: IgnoreScope, name: string): IgnoreScope {
    let byName = this.children.get(scope);
    if (!byName) this.children.set(scope, (byName = new Map()));
    let hit = byName.get(name);
    if (!hit) byName.set(name, (hit = scope.child(name)));
    return hit;
  }

  /** `scope` with the rules of its folder's own `.gitignore` (at `file`) added. */
  withOwnRules(scope: IgnoreScope, file: string): IgnoreScope {
    let hit = this.ownRules.get(scope);
    if (!hit) this.ownRules.set(scope, (hit = scope.withRules(readRules(file))));
    return hit;
  }

  ignores(scope: IgnoreScope, name: string, isDir: boolean): boolean {
    let known = this.verdicts.get(scope);
    if (!known) this.verdicts.set(scope, (known = new Map()));
    const key = isDir ? `${name}/` : name;
    let hit = known.get(key);
    if (hit === undefined) known.set(key, (hit = scope.ignores(name, isDir)));
    return hit;
  }
}
