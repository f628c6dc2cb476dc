/**
 * Refs at a version for a command that checks ref by ref (`validate`, `verify refs`): each ref
 * that may name a version is read once, before the synchronous check that takes it, through one
 * reader for the whole run, so a pinned repository's git processes are started once a run
 * (docs/refs.md#refs-at-a-version). Nothing of the versions room is loaded until a ref holds a
 * `:`, the one character every alias ref, pinned or not, has.
 */
import type { Context } from '../../shared/context.js';
import { isRefcatError } from '../../shared/errors.js';
import type { AliasEntry, AliasResolver } from '../alias/resolve-aliases.js';
import type { PreparedVersions, VersionPolicy } from './prepare-versions.js';
import type { VersionReader } from './version-reader.js';

/** A ref to check and the folders it is looked up in (its key: the ref and the first of them). */
export interface RefToCheck {
  ref: string;
  dirs: readonly string[];
}

/**
 * The warning a check gets when a pinned alias is read at its pin, not at its checkout: the
 * verdict is the pin's, as it should be, so it does not fail a `--strict` run.
 */
export const READ_AT_PIN = 'pin_differs';

export class RunVersions {
  private readonly asked = new Set<string>();
  private run: { reader: VersionReader; prepared: PreparedVersions } | null = null;

  constructor(
    private readonly ctx: Context,
    readonly policy: VersionPolicy = {},
  ) {}

  /** What extraction takes (ExtractOptions.versions); undefined until a ref was read. */
  get prepared(): PreparedVersions | undefined {
    return this.run?.prepared;
  }

  /** How many git processes the run started (tests). */
  get spawned(): number {
    return this.run?.reader.spawned ?? 0;
  }

  /** Whether any of `refs` may name a version and was not read yet. */
  pending(refs: readonly RefToCheck[]): boolean {
    return refs.some((r) => this.mayNameVersion(r.ref) && !this.asked.has(keyOf(r)));
  }

  /** `--worktree` reads only revision refs at a version: they hold an `@` before their `:`. */
  private mayNameVersion(ref: string): boolean {
    const colon = ref.indexOf(':');
    return colon !== -1 && (this.policy.mode !== 'worktree' || ref.lastIndexOf('@', colon) > 0);
  }

  /** Reads the refs of `refs` that name a version (a pinned alias, `alias@REV:`, `.@REV:`) and were not read yet. */
  async prepare(refs: readonly RefToCheck[], aliases: AliasResolver): Promise<void> {
    const byFolder = new Map<string, { inputs: string[]; searchDirs: string[] }>();
    for (const r of refs) {
      if (!this.mayNameVersion(r.ref) || this.asked.has(keyOf(r))) continue;
      this.asked.add(keyOf(r));
      const key = r.dirs.join('\0');
      let batch = byFolder.get(key);
      if (!batch) byFolder.set(key, (batch = { inputs: [], searchDirs: [...r.dirs] }));
      batch.inputs.push(r.ref);
    }
    if (byFolder.size === 0) return;
    const [{ prepareVersions, PreparedVersions }, { VersionReader }] = await Promise.all([import('./prepare-versions.js'), import('./version-reader.js')]);
    this.run ??= { reader: new VersionReader(this.ctx, { mode: this.policy.mode, reachableOnly: this.policy.reachableOnly }), prepared: new PreparedVersions(this.policy) };
    const batches = [...byFolder.values()].map((b) => ({ ...b, aliases }));
    await prepareVersions(batches, this.ctx, { aliases, base: batches[0]!.searchDirs[0], policy: this.policy, run: this.run });
  }

  /**
   * The files of a pinned alias at its pin (relative to its folder), or null: it has no pin, the
   * run reads checkouts (`--worktree`), or the clone lacks the pin.
   */
  async treeOf(alias: AliasEntry): Promise<string[] | null> {
    if (alias.pin === undefined || this.policy.mode === 'worktree') return null;
    const [{ PreparedVersions }, { VersionReader }] = await Promise.all([import('./prepare-versions.js'), import('./version-reader.js')]);
    this.run ??= { reader: new VersionReader(this.ctx, { mode: this.policy.mode, reachableOnly: this.policy.reachableOnly }), prepared: new PreparedVersions(this.policy) };
    const target = { root: alias.target, alias: alias.name, pin: alias.pin, lockfile: alias.origin, ref: `${alias.name}:` };
    try {
      return (await this.run.reader.list(target)).tree?.files ?? null;
    } catch (err) {
      if (!isRefcatError(err)) throw err;
      return null; // the ref's own error says what is wrong
    }
  }

  /** Ends the run's git processes. */
  close(): void {
    this.run?.reader.close();
  }
}

function keyOf(r: RefToCheck): string {
  return `${r.ref}\0${r.dirs[0] ?? ''}`;
}
