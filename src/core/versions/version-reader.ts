/**
 * The versions room: which version a ref reads, and its bytes at that version
 * (docs/refs.md#refs-at-a-version). A ref into an alias the workspace lockfile pins reads the
 * pinned commit; `alias@REV:`, `.@REV:` and `--at` read the revision they name; everything else
 * reads the checkout, with no git process started. Every git question goes through the git room:
 * one long-lived `git cat-file --batch` per repository (object-batch.ts) answers the commits, the
 * checkout's HEAD and the blobs, one round trip each.
 *
 * One call for every front end: read() takes a folder, a path in it and the version asked for,
 * and gives the bytes (or "the disk holds them"), the commit they came from and the warnings.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Context } from '../../shared/context.js';
import { type Diagnostic, directoryError, RefcatError, RefError } from '../../shared/errors.js';
import { shownPath } from '../../shared/paths.js';
import { GitRunner } from '../git/git-runner.js';
import { type BatchAnswer, ObjectBatch } from '../git/object-batch.js';
import { repoFinder } from '../git/repository.js';
import { reachableFromRef, resolveCommit } from '../git/revisions.js';
import { filesAt } from '../git/tree-paths.js';
import { quotedRevision, revisionProblem, shortRevision, versionPathProblem } from '../ref-spec/revision-syntax.js';
import { DiskHeld, headCommit, pinCommit, type PinCommit } from './pin-resolution.js';
import { entryMode, gitlinkAbove, gitlinkAt } from './submodule-path.js';

/** `--worktree` reads every checkout as it is; `--pinned` makes a pin the clone lacks an error. */
export type VersionMode = 'auto' | 'worktree' | 'pinned';

/** The version a read asks for: an alias's folder, and its pin or a revision. */
export interface VersionTarget {
  /** The folder paths are relative to: the alias's target, or the repository root for `.`. */
  root: string;
  /** The alias as written (`.` for the working directory's repository), for messages. */
  alias: string;
  /** The lockfile's pin (`repos[].ref`), and the lockfile's path. */
  pin?: string;
  lockfile?: string;
  /** `alias@REV:`, `.@REV:` or `--at REV`. */
  rev?: string;
  /** The ref, for messages. */
  ref: string;
}

/** One file at a version. */
export interface VersionedRead {
  /** The full sha the content belongs to; null: the checkout as it is, at no version. */
  commit: string | null;
  /** The content; null when the file on disk holds it (read the disk). */
  bytes: Buffer | null;
  /** The ref named its revision: a printed spec keeps it (as the full sha). */
  revision: boolean;
  warnings: Diagnostic[];
}

/** A version's file list, for a glob: paths relative to the target's folder. */
export interface VersionedTree {
  commit: string;
  files: string[];
}

/** The longest symbolic link target looked for (PATH_MAX on Linux). */
const MAX_LINK_TARGET_BYTES = 4096;

/** A blob larger than this is refused: the whole of it is held in memory. */
export const MAX_VERSIONED_BYTES = 64 * 1024 * 1024;

/** One repository's state for a run: its batch, its HEAD, the commits its pins and revisions name. */
interface RepoVersions {
  batch: ObjectBatch;
  head: Promise<string | null> | null;
  commits: Map<string, Promise<PinCommit | string | null | false>>;
  blobs: Map<string, Promise<BatchAnswer>>;
}

const AT_DISK: Omit<VersionedRead, 'warnings'> = { commit: null, bytes: null, revision: false };

export class VersionReader {
  private readonly repos = new Map<string, RepoVersions>();
  private readonly warned = new Set<string>();
  private readonly findRepo = repoFinder();
  private readonly disk = new DiskHeld();
  private gitRunner: GitRunner | undefined;

  constructor(
    private readonly ctx: Context,
    /** `maxBytes`: the largest blob held (default MAX_VERSIONED_BYTES); larger is read from a checkout at its version, or refused. */
    private readonly options: { mode?: VersionMode; git?: GitRunner; maxBytes?: number; reachableOnly?: boolean } = {},
  ) {}

  get mode(): VersionMode {
    return this.options.mode ?? 'auto';
  }

  /** How many git processes this reader started (tests, the bench). */
  get spawned(): number {
    return this.gitRunner?.spawned ?? 0;
  }

  /** Whether reading `target` asks git anything: a revision, or a pin outside `--worktree`. */
  versioned(target: Pick<VersionTarget, 'pin' | 'rev'>): boolean {
    return target.rev !== undefined || (target.pin !== undefined && this.mode !== 'worktree');
  }

  /**
   * `relPath` (relative to the target's folder) at the target's version. Throws RefError for a
   * path the version does not have, an unknown revision, a pin the clone lacks under `--pinned`,
   * an LFS pointer, a path refused (leaving the folder, holding CR, LF or NUL).
   */
  async read(target: VersionTarget, relPath: string): Promise<VersionedRead> {
    const abs = this.inside(target, relPath);
    const warnings: Diagnostic[] = [];
    if (!this.versioned(target)) return { ...AT_DISK, warnings };
    const repo = this.repoOf(target, warnings);
    if (repo === null) return { ...AT_DISK, warnings };
    try {
      const commit = await this.commitOf(target, repo, warnings);
      if (commit === null) return { ...AT_DISK, warnings };
      const repoRel = toPosix(path.relative(repo, abs));
      return await this.readAt(target, repo, commit, repoRel, abs, warnings);
    } catch (err) {
      return this.withoutGit(err, target, warnings);
    }
  }

  /**
   * Without a git command, a pin cannot be read: the checkout is, with one warning a run; a
   * revision ref fails. Any other failure is the ref's.
   */
  private withoutGit(err: unknown, target: VersionTarget, warnings: Diagnostic[]): VersionedRead {
    if (!(err instanceof RefcatError && err.code === 'git_missing')) throw err;
    if (target.rev !== undefined || this.mode === 'pinned') throw new RefError('git_missing', `git is not installed (or not on PATH), and ${target.ref} names a version`, target.ref);
    this.warnOnce(warnings, 'nogit', 'pin_unread', 'git is not installed (or not on PATH): pinned aliases are read from their checkouts');
    return { ...AT_DISK, warnings };
  }

  /** The files of the target's version under its folder (for a glob), or null: walk the disk. */
  async list(target: VersionTarget): Promise<{ tree: VersionedTree | null; warnings: Diagnostic[] }> {
    const warnings: Diagnostic[] = [];
    if (!this.versioned(target)) return { tree: null, warnings };
    const repo = this.repoOf(target, warnings);
    let commit: string | null = null;
    try {
      commit = repo === null ? null : await this.commitOf(target, repo, warnings);
    } catch (err) {
      this.withoutGit(err, target, warnings);
    }
    if (repo === null || commit === null) return { tree: null, warnings };
    const prefix = toPosix(path.relative(repo, target.root));
    const under = prefix === '' ? '' : prefix + '/';
    const files: string[] = [];
    // Submodules (mode 160000) are folders of another repository: a glob does not enter them.
    for (const f of await filesAt(this.git(), repo, commit)) if (f.mode !== '160000' && f.path.startsWith(under)) files.push(f.path.slice(under.length));
    return { tree: { commit, files }, warnings };
  }

  /** The pin's commit and the checkout's, for `refcat aliases`: null where there is none. */
  async pinState(root: string, pin: string): Promise<{ repo: string | null; pinned: string | null; head: string | null; why: string | null }> {
    const repo = this.findRepo(root);
    const where = shownPath(this.ctx.cwd, root);
    if (!diskHoldsAny(root, true)) return { repo: null, pinned: null, head: null, why: `not cloned: ${where} does not exist` };
    if (repo !== root) return { repo: null, pinned: null, head: null, why: `${where} is not a git repository of its own` };
    const state = this.state(repo);
    let found: PinCommit;
    let head: string | null;
    try {
      found = await this.pinOf(state, repo, pin);
      head = await this.headOf(state);
    } catch (err) {
      // git refusing the clone (another user owns it) is this pin's state, not the listing's end.
      if (!(err instanceof RefcatError) || err.code === 'git_missing') throw err;
      return { repo, pinned: null, head: null, why: err.message };
    }
    if (found.commit !== null) return { repo, pinned: found.commit, head, why: null };
    return { repo, pinned: null, head, why: found.malformed ? found.why : `the clone does not have ${found.why}` };
  }

  /** Ends every batch process. */
  close(): void {
    for (const r of this.repos.values()) r.batch.close();
    this.repos.clear();
  }

  private git(): GitRunner {
    return (this.gitRunner ??= this.options.git ?? new GitRunner(this.ctx));
  }

  private state(repo: string): RepoVersions {
    let s = this.repos.get(repo);
    if (!s) this.repos.set(repo, (s = { batch: new ObjectBatch(this.git(), repo), head: null, commits: new Map(), blobs: new Map() }));
    return s;
  }

  private headOf(state: RepoVersions): Promise<string | null> {
    return (state.head ??= headCommit(state.batch));
  }

  private pinOf(state: RepoVersions, repo: string, pin: string): Promise<PinCommit> {
    let found = state.commits.get(`pin\0${pin}`) as Promise<PinCommit> | undefined;
    if (!found) state.commits.set(`pin\0${pin}`, (found = pinCommit(this.git(), state.batch, repo, pin)));
    return found;
  }

  /** The absolute path of `relPath` in the target's folder; RefError when it leaves it or cannot be read at a version. */
  private inside(target: VersionTarget, relPath: string): string {
    const problem = versionPathProblem(relPath);
    if (problem) throw new RefError('invalid_path', `${problem}: ${target.ref}`, target.ref);
    const abs = path.resolve(target.root, relPath);
    const rel = path.relative(target.root, abs);
    if (rel === '..' || rel.startsWith('..' + path.sep) || path.isAbsolute(rel)) {
      const folder = target.alias === '.' ? 'the repository' : `the folder of ${target.alias}`;
      throw new RefError('outside_alias', `The path leaves ${folder}: ${target.ref}`, target.ref);
    }
    return abs;
  }

  /** The repository holding the target's folder, or null (with a warning for a pin, an error for a revision). */
  private repoOf(target: VersionTarget, warnings: Diagnostic[]): string | null {
    const repo = this.findRepo(target.root);
    // A pin names a commit of the alias's own clone: a plain folder inside another repository
    // (the workspace's) has no version of its own.
    if (repo !== null && (target.rev !== undefined || repo === target.root)) return repo;
    const where = shownPath(this.ctx.cwd, target.root);
    // An alias not cloned yet: reading its folder says so, once per folder (docs/workflows.md#externals-not-cloned-yet).
    if (target.rev === undefined && !diskHoldsAny(target.root, true)) return null;
    if (target.rev !== undefined) throw new RefError('not_a_repository', `${where} is not a git repository: ${target.ref} names a revision`, target.ref);
    if (this.mode === 'pinned') {
      throw new RefError('pin_unread', `${target.alias} is pinned at ${shortRevision(target.pin!)} in ${this.lockName(target)}, but ${where} is not a git repository of its own: ${target.ref}`, target.ref);
    }
    this.warnOnce(warnings, `norepo\0${target.alias}`, 'pin_unread', `${target.alias} is pinned at ${shortRevision(target.pin!)} in ${this.lockName(target)}, but ${where} is not a git repository: reading the folder`);
    return null;
  }

  /** The commit the target reads, or null: read the checkout (a pin the clone lacks, with a warning). */
  private async commitOf(target: VersionTarget, repo: string, warnings: Diagnostic[]): Promise<string | null> {
    const state = this.state(repo);
    const where = shownPath(this.ctx.cwd, repo);
    if (target.rev !== undefined) {
      const problem = revisionProblem(target.rev);
      if (problem) throw new RefError('invalid_revision', `${problem}: ${target.ref}`, target.ref);
      let found = state.commits.get(`rev\0${target.rev}`) as Promise<string | null | false> | undefined;
      if (!found) state.commits.set(`rev\0${target.rev}`, (found = this.revisionCommit(repo, target.rev)));
      const commit = await found;
      if (commit === null) {
        throw new RefError('unknown_revision', `Unknown revision ${quotedRevision(target.rev)} in ${where}: ${target.ref}`, target.ref, [
          'A ref reads a commit: a branch, a tag or a commit id (a tree or blob id, or a stash entry, is not one)',
        ]);
      }
      if (commit === false) {
        throw new RefError('unreachable_revision', `Not read here: no branch or tag of ${where} reaches ${target.rev}: ${target.ref}`, target.ref, [
          'A server reads a revision only when a branch, remote branch or tag holds it',
        ]);
      }
      return commit;
    }
    const found = await this.pinOf(state, repo, target.pin!);
    if (found.commit !== null) {
      const head = await this.headOf(state);
      if (head !== found.commit && this.mode !== 'worktree') {
        const at = head === null ? 'has no commit checked out' : `is checked out at ${head.slice(0, 7)}`;
        this.warnOnce(warnings, `moved\0${target.alias}`, 'pin_differs', `${target.alias} ${at}, ${this.lockName(target)} pins ${found.shown}: reading the pinned commit (--worktree reads the checkout)`);
      }
      return found.commit;
    }
    const message = found.malformed
      ? `${target.alias}: in ${this.lockName(target)}, ${found.why}`
      : `${target.alias}: ${this.lockName(target)} pins ${found.why}, which the clone at ${where} does not have`;
    const details = found.fetch ? [`Fetch it: git -C ${where} fetch origin ${found.fetch}`] : [];
    const code = found.malformed ? 'pin_unread' : 'pin_missing';
    if (this.mode === 'pinned') throw new RefError(code, `${message}: ${target.ref}`, target.ref, details);
    this.warnOnce(warnings, `missing\0${target.alias}`, code, `${message}: reading the checkout`, details);
    return null;
  }

  private async readAt(target: VersionTarget, repo: string, commit: string, repoRel: string, abs: string, warnings: Diagnostic[]): Promise<VersionedRead> {
    const state = this.state(repo);
    const revision = target.rev !== undefined;
    // Many refs into one file read its blob once.
    const name = `${commit}:${repoRel}`;
    const answer = await this.cachedRead(state, name);
    const where = shownPath(this.ctx.cwd, repo);
    if (answer.kind === 'absent') {
      const message = `${target.alias}: the clone at ${where} lacks ${repoRel} of commit ${commit.slice(0, 7)} (a partial clone)`;
      const details = [`Fetch it: git -C ${where} cat-file -e ${answer.oid} (git fetches a partial clone's missing object when it reads it)`];
      if (revision || this.mode === 'pinned') throw new RefError('pin_missing', `${message}: ${target.ref}`, target.ref, details);
      // "Reading the pinned commit", said for this very read, is taken back: one warning, the true one.
      const moved = warnings.findIndex((w) => w.code === 'pin_differs' && w.message.startsWith(`${target.alias} `));
      if (moved !== -1) {
        warnings.splice(moved, 1);
        this.warned.delete(`moved\0${target.alias}`);
      }
      this.warnOnce(warnings, `absent\0${target.alias}\0${repoRel}`, 'pin_missing', `${message}: reading the checkout`, details);
      return { ...AT_DISK, warnings };
    }
    if (answer.kind !== 'object') {
      const sub = await gitlinkAbove(state.batch, commit, repoRel);
      if (sub) return this.readInSubmodule(target, repo, commit, sub, warnings);
      const link = await gitlinkAt((n) => this.cachedRead(state, n), commit, repoRel);
      if (link) {
        const folder = target.ref.replace(/#.*/s, '').replace(/\/+$/, '');
        throw new RefError('is_directory', `Is a submodule: ${target.ref}`, target.ref, [
          `Commit ${commit.slice(0, 7)} of ${where} records ${repoRel} as a submodule at ${link.slice(0, 7)}: name a file in it (${folder}/<path>)`,
        ]);
      }
      const has = !revision && diskHoldsAny(abs) ? ['The checkout has it: --worktree reads the checkout'] : [];
      throw new RefError('not_found', `REFCAT ref not found: ${target.ref}`, target.ref, [`Not in commit ${commit.slice(0, 7)} of ${where}`, ...has]);
    }
    if (answer.type === 'tree') throw directoryError(target.ref);
    if (answer.type !== 'blob') throw new RefError('not_regular', `Not a regular file: ${target.ref}`, target.ref);
    if (!answer.whole) {
      // Too large to hold: read from disk when the checkout holds exactly that blob (a pin's or a revision's).
      if ((await this.headOf(state)) === commit && this.disk.holds(abs, answer.oid)) return { commit, bytes: null, revision, warnings };
      const mib = Math.round((this.options.maxBytes ?? MAX_VERSIONED_BYTES) / (1024 * 1024));
      throw new RefError('too_large', `A file larger than ${mib} MiB is read at a version only from a checkout at that version: ${target.ref}`, target.ref);
    }
    // git gives a symbolic link's blob as its target path: never printed as the file's lines. Only a
    // blob short enough to be a link's target asks its folder's tree (one round trip, shared).
    if (answer.data.length <= MAX_LINK_TARGET_BYTES && (await entryMode((n) => this.cachedRead(state, n), commit, repoRel)) === '120000') {
      const hint = revision ? [] : ['--worktree reads the checkout, where the link is followed'];
      throw new RefError('not_regular', `Not a regular file: ${target.ref}: a symbolic link in commit ${commit.slice(0, 7)}`, target.ref, hint);
    }
    if (isLfsPointer(answer.data)) {
      // --worktree reads a pinned alias's checkout; a revision ref always reads its revision.
      const how = revision ? `Check out ${commit.slice(0, 7)} and read the file without a revision (after git lfs pull)` : 'Read the checkout with --worktree (after git lfs pull)';
      throw new RefError('lfs_pointer', `Stored in Git LFS: ${target.ref}: commit ${commit.slice(0, 7)} holds only its LFS pointer, which refcat does not resolve`, target.ref, [how]);
    }
    if (!revision && (await this.headOf(state)) === commit) {
      // The checkout is at the pin: the disk holds the pinned bytes unless the file was changed.
      if (this.disk.holds(abs, answer.oid)) return { commit, bytes: null, revision, warnings };
      this.warnOnce(warnings, `changed\0${abs}`, 'pin_differs', `${target.ref} is changed in the checkout of ${target.alias}: reading the pinned commit ${commit.slice(0, 7)} (--worktree reads the checkout)`);
    }
    return { commit, bytes: answer.data, revision, warnings };
  }

  /**
   * A path under a submodule: read at the commit the pinned tree records for it, from the
   * submodule's own clone; `unknown` (an error naming why) when that clone is missing or lacks it.
   * The read's commit is `outer`, the alias repository's.
   */
  private async readInSubmodule(target: VersionTarget, repo: string, outer: string, sub: { prefix: string; commit: string; rest: string }, warnings: Diagnostic[]): Promise<VersionedRead> {
    const subRoot = path.join(repo, ...sub.prefix.split('/'));
    const where = shownPath(this.ctx.cwd, subRoot);
    const subRepo = this.findRepo(subRoot);
    const unknown = (why: string) =>
      new RefError('version_unknown', `Version unknown: ${target.ref}: ${sub.prefix} is a submodule at ${sub.commit.slice(0, 7)}, and ${why}`, target.ref);
    if (subRepo !== subRoot) throw unknown(`its clone at ${where} is not checked out`);
    const state = this.state(subRepo);
    const found = await state.batch.read(`${sub.commit}^{commit}`);
    if (found.kind !== 'object') throw unknown(`its clone at ${where} does not have that commit (git -C ${where} fetch origin ${sub.commit})`);
    const abs = path.join(subRoot, ...sub.rest.split('/'));
    const read = await this.readAt(target, subRepo, sub.commit, sub.rest, abs, warnings);
    // The ref names the alias's repository: its commit (not the submodule's) is the one a printed
    // spec must carry to read these bytes back (docs/refs.md#revision-refs).
    return read.commit === null ? read : { ...read, commit: outer };
  }

  /** `name` through the repository's batch, read once a run (a failed read is not kept). */
  private cachedRead(state: RepoVersions, name: string): Promise<BatchAnswer> {
    let reading = state.blobs.get(name);
    if (!reading) {
      state.blobs.set(name, (reading = state.batch.read(name, this.options.maxBytes ?? MAX_VERSIONED_BYTES)));
      reading.catch(() => state.blobs.delete(name));
    }
    return reading;
  }

  /** The commit a revision names; false: one no branch or tag reaches, under `reachableOnly`. */
  private async revisionCommit(repo: string, rev: string): Promise<string | null | false> {
    const commit = await resolveCommit(this.git(), repo, rev);
    if (commit === null || !this.options.reachableOnly) return commit;
    return (await reachableFromRef(this.git(), repo, commit)) ? commit : false;
  }

  private warnOnce(warnings: Diagnostic[], key: string, code: string, message: string, details: string[] = []): void {
    if (this.warned.has(key)) return;
    this.warned.add(key);
    warnings.push({ code, message, details });
  }

  private lockName(target: VersionTarget): string {
    return target.lockfile ? path.basename(target.lockfile) : 'the lockfile';
  }
}

/** The first line of a Git LFS pointer (https://github.com/git-lfs/git-lfs/blob/main/docs/spec.md). */
const LFS_POINTER = Buffer.from('version https://git-lfs.github.com/spec/v1\n');

function isLfsPointer(data: Buffer): boolean {
  return data.length < 1024 && data.subarray(0, LFS_POINTER.length).equals(LFS_POINTER);
}

function diskHoldsAny(abs: string, folder = false): boolean {
  try {
    const stat = fs.statSync(abs, { throwIfNoEntry: false });
    return (folder ? stat?.isDirectory() : stat?.isFile()) ?? false;
  } catch {
    return false;
  }
}

function toPosix(p: string): string {
  return path.sep === '/' ? p : p.split(path.sep).join('/');
}
