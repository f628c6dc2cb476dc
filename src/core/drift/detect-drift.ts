import fs from 'node:fs';
import path from 'node:path';
import type { Context } from '../../shared/context.js';
import { UsageError } from '../../shared/errors.js';
import { findUp } from '../../shared/paths.js';
import type { AliasEntry } from '../alias/resolve-aliases.js';
import { escapePath, formatSelector, formatSpan, safePath } from '../ref-spec/format-ref-spec.js';
import type { LineSpan, RangeSelector, RefSpec, SymbolSelector } from '../ref-spec/ref-spec.js';
import type { Confinement } from '../safe-read/confinement.js';
import { editsInside, type FileChange, type Hunk, mapLine, parseDiff, parseFileDiffs, type RepoChanges } from '../git/diff-hunks.js';
import { type AcceptKey, applyAccepted, linesHash } from './accept-drift.js';
import type { DriftNotFixed } from './fix-drift.js';
import { argBatches, lineRanges, MAX_REVISION_CHARS } from '../git/arg-batches.js';
import { GitError, GitRunner } from '../git/git-runner.js';
import { judgeSymbol } from './symbol-drift.js';

/**
 * Verdicts of docs/reference.md#drift-verdicts; `fixed` is a `moved` ref that --fix rewrote,
 * `accepted` a `changed` ref a reviewer accepted as it is now (docs/drift.md#accepting-a-change).
 */
export type DriftStatus = 'unchanged' | 'moved' | 'changed' | 'deleted' | 'unknown' | 'anchored' | 'fixed' | 'accepted';

/** A ref found in a scanned file, as detectDrift needs it. */
export interface DriftRefInput {
  /** Absolute path of the scanned file (doc or `.conv`). */
  file: string;
  /** 1-based line of the scanned file holding the ref. */
  line: number;
  /** The ref exactly as written. */
  ref: string;
  spec: RefSpec;
  /** For an alias ref: the alias it names. */
  alias: AliasEntry | null;
  /** Folders a relative ref is looked up in, in order (the alias root for an alias ref). */
  searchDirs: readonly string[];
  /** The scanned file's `fileStamp` when it was scanned: --fix skips it if it changed since. */
  stamp?: string | null;
  /**
   * A file not scanned itself but reached through an INCLUDE: the scanned workflow that includes
   * it. --fix writes it only inside the working directory or that workflow's repository.
   */
  includedBy?: string;
}

/**
 * A ref found that cannot be followed at all (an alias no source defines, a ref that does not
 * parse, a malformed alias file): its entry is `unknown`, with `reason`, so that every ref found
 * has one (docs/reference.md#drift-verdicts).
 */
export interface UnresolvedDriftRef {
  file: string;
  line: number;
  ref: string;
  reason: string;
  includedBy?: string;
}

export interface DriftEntry {
  /** Absolute path of the scanned file. */
  file: string;
  line: number;
  ref: string;
  status: DriftStatus;
  /** Full sha of the base in the target's repository, null when there is none. */
  base: string | null;
  /** moved: the ref to write instead; changed: git's mapping of the old range (a reader's guess). */
  newRef: string | null;
  /** changed: how many of the old lines git's diff marks as edited. */
  editedLines: number;
  /** changed: lines git's diff inserted between two of the old lines (diff-hunks.ts editsInside). */
  insertedLines: number;
  /** changed: old lines it removed with nothing in their place (also counted in editedLines). */
  deletedLines: number;
  /** changed: how many lines the ref selected at its base. */
  oldLines: number;
  /** unknown: why. */
  reason: string | null;
  /**
   * The lines the ref selected at its base, as compared (no line ending); undefined when there is
   * no base text (anchored, unknown, a line not committed yet).
   */
  baseLines?: string[];
  /** unknown: the alias folder that does not exist, for reports that group such refs. */
  notCloned?: string;
  /** The scanned file's stamp when scanned (from the input), for --fix. */
  stamp?: string | null;
  /** From the input, for --fix. */
  includedBy?: string;
  /** With newRef: what it must read back as, file and lines, for --fix to write it (fix-drift.ts). */
  target?: RefTarget;
  /** changed: what acceptance records (docs/drift.md#accepting-a-change). */
  acceptKey?: AcceptKey;
  /** A symbol ref's `changed`: a warning, not a failure, unless --strict (docs/drift.md#symbol-refs). */
  byName?: boolean;
  /** --fix writes `newRef` though the status is not `moved`: a renamed declaration, a ref `refcat anchor` names by its declaration. */
  rewrite?: boolean;
  /** With the `baseFiles` option, a line ref's: its target file at the base and its path now (docs/drift.md#anchoring). */
  baseFile?: { text: Buffer; target: string };
}

/** The alias, path and lines a new ref means; `lines`: how many the file has now. */
export interface RefTarget {
  alias: string | null;
  path: string;
  /** The path is not the one the ref was written with (its file was renamed). */
  renamed: boolean;
  start: number;
  end: number;
  lines: number;
  /** A new symbol ref: the declaration it must name (its lines are start-end now). */
  symbol?: SymbolSelector;
}

export interface DriftReport {
  entries: DriftEntry[];
  /** After fixDrift: the files it left as they were, and why. */
  notFixed?: DriftNotFixed[];
  counts: Record<DriftStatus, number>;
  /** git processes started for this report. */
  gitProcesses: number;
}

export interface DetectDriftOptions {
  /** Compare every ref against this revision instead of the commit that last changed its line. */
  since?: string;
  /** Share a runner (and its process count) with a later fixDrift or another report. */
  git?: GitRunner;
  /**
   * Blame every scanned file, without the shortcuts that find most bases from a few logs (for
   * comparisons: tests check the shortcuts against it, the bench times it). Same verdicts.
   */
  blameEveryFile?: boolean;
  /** `refcat mcp`: a refcat-accepted.json under the root that leads outside is refused (readAccepted). */
  confine?: Confinement;
  /** Keep each line ref's target file at its base on its entry (`baseFile`), for `refcat anchor --drift`. */
  baseFiles?: boolean;
}

interface Pending {
  input: DriftRefInput;
  entry: DriftEntry;
  selector: RangeSelector | SymbolSelector;
  /** Scanned file's repository and base commit there (null: uncommitted line). */
  scanRepo: string;
  scanBase: string | null;
  scanTime: number;
  /** Target file and its repository, once known. */
  targetRepo?: string;
  targetBase?: string;
  target?: string;
  /** Folder the ref's path is relative to. */
  baseDir?: string;
}

/**
 * Whether each line ref still points at the code it was written against
 * (docs/reference.md#drift-verdicts). Git runs a bounded number of times: one blame per scanned
 * file with line refs, a few batch lookups per repository, one diff per (repository, base) pair;
 * independent runs (blames, diffs, lookups in different repositories) run at once, as many as the
 * runner allows.
 */
export async function detectDrift(refs: readonly (DriftRefInput | UnresolvedDriftRef)[], ctx: Context, options: DetectDriftOptions = {}): Promise<DriftReport> {
  const git = options.git ?? new GitRunner(ctx);
  const before = git.spawned;
  const entries: DriftEntry[] = [];
  const pending: Pending[] = [];
  const repoOf = repoFinder();

  for (const input of refs) {
    const entry: DriftEntry = { file: input.file, line: input.line, ref: input.ref, status: 'anchored', base: null, newRef: null, editedLines: 0, insertedLines: 0, deletedLines: 0, oldLines: 0, reason: null };
    if (input.includedBy !== undefined) entry.includedBy = input.includedBy;
    entries.push(entry);
    if ('reason' in input) {
      unknown(entry, input.reason);
      continue;
    }
    if (input.stamp !== undefined) entry.stamp = input.stamp;
    const sel = input.spec.selector;
    if (!sel || sel.kind === 'pattern') continue;
    const scanRepo = repoOf(path.dirname(input.file));
    if (!scanRepo) {
      unknown(entry, `${shown(ctx, input.file)} is not in a git repository`);
      continue;
    }
    pending.push({ input, entry, selector: sel, scanRepo, scanBase: null, scanTime: 0 });
  }

  await findBases(pending, ctx, git, options.since, options.blameEveryFile ?? false);
  const live = pending.filter((p) => {
    if (p.entry.status === 'unknown') return false;
    if (p.scanBase === null) {
      p.entry.status = 'unchanged'; // written against the working tree
      return false;
    }
    return true;
  });
  await findTargets(live, ctx, git, repoOf);
  await judge(live.filter((p) => p.entry.status !== 'unknown'), git, options.baseFiles ?? false);

  applyAccepted(entries, options.confine);
  const counts: Record<DriftStatus, number> = { unchanged: 0, moved: 0, changed: 0, deleted: 0, unknown: 0, anchored: 0, fixed: 0, accepted: 0 };
  for (const e of entries) counts[e.status]++;
  return { entries, counts, gitProcesses: git.spawned - before };
}

function unknown(entry: DriftEntry, reason: string): void {
  entry.status = 'unknown';
  entry.reason = reason;
}

function shown(ctx: Context, p: string): string {
  const rel = path.relative(ctx.cwd, p);
  return rel === '' ? '.' : rel.startsWith('..') ? p : rel.split(path.sep).join('/');
}

/** The repository root holding a folder (a `.git` folder or file up the tree), cached. */
function repoFinder(): (dir: string) => string | null {
  const cache = new Map<string, string | null>();
  return (dir) => {
    let hit = cache.get(dir);
    if (hit === undefined) {
      const dotGit = findUp(dir, '.git');
      hit = dotGit ? path.dirname(dotGit) : null;
      cache.set(dir, hit);
    }
    return hit;
  };
}

const ZERO_SHA = /^0+$/;
/** What `git blame` says (LC_ALL=C) of a file that has no commit yet. */
const NOT_COMMITTED = /no such path '.*' in HEAD|no such ref: HEAD|does not have any commits yet/;

/** The base of every ref in its scanned file's repository: blame (one per file), or --since. */
async function findBases(pending: Pending[], ctx: Context, git: GitRunner, since: string | undefined, blameEveryFile: boolean): Promise<void> {
  if (since !== undefined) {
    // git would read `-x` as an option (`--output=FILE` writes a file): a revision never starts so.
    if (since.startsWith('-')) throw new UsageError(`Unknown revision for --since: ${since} (a revision, not an option)`, { code: 'bad_revision' });
    if (since.length > MAX_REVISION_CHARS) {
      throw new UsageError(`Unknown revision for --since: a name of ${since.length} characters is no revision (at most ${MAX_REVISION_CHARS})`, { code: 'bad_revision' });
    }
    const byRepo = new Map<string, { sha: string; time: number }>();
    for (const repo of new Set(pending.map((p) => p.scanRepo))) {
      const out = await git.tryRun(repo, ['log', '-1', '--no-walk', '--format=%H %ct', `${since}^{commit}`, '--']);
      const m = out && /^([0-9a-f]{40,64}) (\d+)/.exec(out.toString('utf8'));
      if (!m) {
        const shallow = isShallow(repo) ? ', a shallow clone: fetch the full history' : '';
        throw new UsageError(`Unknown revision for --since: ${since} (in ${shown(ctx, repo)}${shallow})`, { code: 'bad_revision' });
      }
      byRepo.set(repo, { sha: m[1]!, time: Number(m[2]) });
    }
    for (const p of pending) {
      const rev = byRepo.get(p.scanRepo)!;
      p.scanBase = rev.sha;
      p.scanTime = rev.time;
    }
    return;
  }
  const byFile = new Map<string, Pending[]>();
  for (const p of pending) groupInto(byFile, p.input.file, p);
  const known = byFile.size >= ADDED_ONCE_MIN_FILES && !blameEveryFile ? await basesWithoutBlame(byFile, git) : new Map<string, Map<number, Base>>();
  const blamed: Promise<void>[] = [];
  for (const [file, group] of byFile) {
    const bases = known.get(file);
    if (bases) {
      for (const p of group) {
        const base = bases.get(p.input.line)!;
        p.scanBase = base.sha;
        p.scanTime = base.time;
      }
      continue;
    }
    blamed.push(blameInto(file, group, ctx, git));
  }
  await Promise.all(blamed);
}

/** The base of each ref of one scanned file: the commit of its line, from one `git blame`. */
async function blameInto(file: string, group: Pending[], ctx: Context, git: GitRunner): Promise<void> {
  const repo = group[0]!.scanRepo;
  const ranges = lineRanges([...new Set(group.map((p) => p.input.line))].sort((a, b) => a - b));
  // Lines far apart, each its own `-L`, would make a command line as long as the doc: past
  // MAX_BLAME_RANGES the whole file is blamed, in the same one run.
  const only = ranges.length > MAX_BLAME_RANGES ? [] : ranges.flatMap(([a, b]) => ['-L', `${a},${b}`]);
  const args = ['blame', '--porcelain', '--no-textconv', ...only, '--', path.relative(repo, file)];
  // A file git does not track yet (or a repository without a commit) was written against the
  // working tree; any other failure (a corrupt repository, a missing blame.ignoreRevsFile) is
  // an error naming the repository, never a silent `unchanged`.
  const out = await git.runExpecting(repo, args, NOT_COMMITTED);
  if (out === null) return;
  const { byLine, timeOf, boundary } = parseBlame(out.toString('utf8'));
  const shallow = isShallow(repo);
  for (const p of group) {
    const sha = byLine.get(p.input.line);
    if (sha && shallow && boundary.has(sha)) {
      // The history stops here: the line's real commit is older than the clone.
      unknown(p.entry, `${shown(ctx, repo)} is a shallow clone: fetch the full history (actions/checkout: fetch-depth: 0)`);
    } else if (sha && !ZERO_SHA.test(sha)) {
      p.scanBase = sha;
      p.scanTime = timeOf.get(sha) ?? 0;
    }
  }
}

/**
 * Whether a repository's history is cut short (`git clone --depth`). Its `.git` may be a file
 * (`gitdir: ...`) for a worktree or a submodule; a worktree's `shallow` file is in the common dir.
 */
function isShallow(repo: string): boolean {
  let gitDir = path.join(repo, '.git');
  try {
    if (!fs.statSync(gitDir).isDirectory()) {
      const m = /^gitdir: (.+)$/m.exec(fs.readFileSync(gitDir, 'utf8'));
      if (m) gitDir = path.resolve(repo, m[1]!.trim());
      try {
        gitDir = path.resolve(gitDir, fs.readFileSync(path.join(gitDir, 'commondir'), 'utf8').trim());
      } catch {
        // not a worktree: the shallow file is in gitDir itself
      }
    }
  } catch {
    return false;
  }
  return fs.existsSync(path.join(gitDir, 'shallow'));
}


interface Base {
  sha: string;
  time: number;
}

/** More `-L` ranges than this in one scanned file: its blame covers the whole file. */
const MAX_BLAME_RANGES = 500;

/** From this many scanned files on, bases are found without a blame each where logs prove them. */
const ADDED_ONCE_MIN_FILES = 4;
/** Paths per git command line (well under any system's argument limit). */
const PATHS_PER_CALL = 2000;

/**
 * The bases of scanned files whose history logs can prove, without a blame each
 * (docs/reference.md#drift-verdicts), by file: line -> base. Two kinds:
 * - a file whose whole history is the one commit that added it: every line is that commit's;
 * - a file added once and since only modified, by commits that are not merges, along the first
 *   parents of HEAD: each line is followed back through those commits' own diffs (git's
 *   `-U0` hunks, computed as blame computes them) to the commit that wrote it.
 * Either way the file must have no uncommitted change and not have been renamed or copied where
 * it was added. Four git runs per repository (and per PATHS_PER_CALL files) instead of one blame
 * per file; every other file is blamed as usual. Shallow clones are left to blame, which knows
 * where their history stops, and so is a repository whose config changes how blame diffs
 * (`diff.algorithm`, `diff.indentHeuristic`, a driver's algorithm, `blame.*` ignored revisions).
 */
async function basesWithoutBlame(byFile: ReadonlyMap<string, Pending[]>, git: GitRunner): Promise<Map<string, Map<number, Base>>> {
  const out = new Map<string, Map<number, Base>>();
  const byRepo = new Map<string, string[]>();
  for (const [file, group] of byFile) groupInto(byRepo, group[0]!.scanRepo, file);
  const batches: Promise<void>[] = [];
  for (const [repo, files] of byRepo) {
    if (isShallow(repo)) continue;
    const byRel = new Map(files.map((f) => [toPosix(path.relative(repo, f)), f]));
    for (const rels of argBatches([...byRel.keys()], PATHS_PER_CALL)) {
      const batch = rels.map((r) => byRel.get(r)!);
      const rel = new Map(batch.map((f) => [toPosix(path.relative(repo, f)), f]));
      const lines = new Map(batch.map((f) => [toPosix(path.relative(repo, f)), [...new Set(byFile.get(f)!.map((p) => p.input.line))]]));
      batches.push(basesIn(git, repo, lines).then((found) => {
        for (const [relPath, bases] of found) out.set(rel.get(relPath)!, bases);
      }));
    }
  }
  await Promise.all(batches);
  return out;
}

interface Touch {
  base: Base;
  status: string;
  merge: boolean;
}

/** Settings under which blame's diff may differ from the log's (blame is then asked). */
const BLAME_DIFF_SETTINGS = /^(diff\.algorithm|diff\.indentheuristic|diff\..+\.algorithm|blame\.ignorerevs(file)?)$/;

async function basesIn(git: GitRunner, repo: string, linesOf: ReadonlyMap<string, number[]>): Promise<Map<string, Map<number, Base>>> {
  const rels = [...linesOf.keys()];
  const found = new Map<string, Map<number, Base>>();
  const everyLine = (relPath: string, base: Base) => found.set(relPath, new Map(linesOf.get(relPath)!.map((n) => [n, base])));
  // A merge that changed a file counts as a change of its own (its diff to the first parent).
  const logArgs = ['--literal-pathspecs', 'log', '--no-follow', '--no-show-signature', '--diff-merges=first-parent', '--format=%x01%H %ct %P', '--name-status', '-z', '--', ...rels];
  const [dirtyOut, logOut, settings] = await Promise.all([
    git.tryRun(repo, ['--literal-pathspecs', 'diff', '--no-ext-diff', '--no-textconv', '--name-only', '-z', 'HEAD', '--', ...rels]),
    git.tryRun(repo, logArgs),
    git.settingsOf(repo),
  ]);
  if (!dirtyOut || !logOut) return found; // no commits yet, or git could not say: blame decides
  const dirty = new Set(dirtyOut.toString('utf8').split('\0'));
  const touches = new Map<string, Touch[]>();
  for (const commit of parseNameStatus(logOut)) {
    for (const { status, paths } of commit.changes) {
      groupInto(touches, paths[paths.length - 1]!, { base: { sha: commit.sha, time: commit.time }, status, merge: commit.parents > 1 });
    }
  }
  const sameDiffAsBlame = ![...settings.keys()].some((k) => BLAME_DIFF_SETTINGS.test(k));
  const addedOnce = new Map<string, Base>();
  const linear = new Map<string, Touch[]>();
  for (const [relPath, list] of touches) {
    if (dirty.has(relPath) || !linesOf.has(relPath)) continue;
    const added = list[list.length - 1]!;
    if (added.status !== 'A' || list.some((t) => t.merge)) continue;
    if (list.length === 1) addedOnce.set(relPath, added.base);
    else if (sameDiffAsBlame && list.slice(0, -1).every((t) => t.status === 'M')) linear.set(relPath, list);
  }
  if (addedOnce.size === 0 && linear.size === 0) return found;
  // A path-limited log cannot see where a file came from: ask each adding commit, with rename
  // detection over all its changes, whether the file was in fact renamed or copied there. At the
  // same time, the first-parent history of the files modified since, with their diffs.
  const shas = [...new Set([...addedOnce.values(), ...[...linear.values()].map((l) => l[l.length - 1]!.base)].map((b) => b.sha))];
  const patchArgs = [
    '--literal-pathspecs', 'log', '--first-parent', '--diff-merges=first-parent', '--no-follow', '--no-show-signature', '--no-renames', '--no-color', '--no-ext-diff', '--no-textconv',
    '--diff-algorithm=myers', '--indent-heuristic', '--inter-hunk-context=0', '--src-prefix=a/', '--dst-prefix=b/', '-U0', '-p', '--format=%x01%H', '--', ...linear.keys(),
  ]; // prettier-ignore
  const [full, patches] = await Promise.all([
    git.tryRun(repo, ['log', '--no-walk=unsorted', '--no-show-signature', '-M', '--format=%x01%H %ct', '--name-status', '-z', ...shas]),
    linear.size > 0 ? git.tryRun(repo, patchArgs) : Promise.resolve(null),
  ]);
  if (!full) return found;
  const arrived = new Set<string>();
  for (const commit of parseNameStatus(full)) {
    for (const { status, paths } of commit.changes) if (status !== 'A') arrived.add(`${commit.sha} ${paths[paths.length - 1]}`);
  }
  for (const [relPath, base] of addedOnce) if (!arrived.has(`${base.sha} ${relPath}`)) everyLine(relPath, base);
  if (!patches) return found;
  const diffsOf = commitDiffs(patches.toString('utf8'));
  for (const [relPath, list] of linear) {
    if (arrived.has(`${list[list.length - 1]!.base.sha} ${relPath}`)) continue;
    const bases = followLines(list, diffsOf.get(relPath), linesOf.get(relPath)!);
    if (bases) found.set(relPath, bases);
  }
  return found;
}

/**
 * `git log -p --format=%x01%H` output: by path, the commits whose diff shows it (newest first),
 * with their hunks; null hunks for a diff without any (binary, a mode change only).
 */
function commitDiffs(text: string): Map<string, { sha: string; added: boolean; hunks: Hunk[] }[]> {
  const out = new Map<string, { sha: string; added: boolean; hunks: Hunk[] }[]>();
  for (const record of text.split('\x01')) {
    const nl = record.indexOf('\n');
    if (nl === -1) continue;
    const sha = record.slice(0, nl).trim();
    for (const d of parseFileDiffs(record.slice(nl + 1))) groupInto(out, d.newPath ?? d.oldPath, { sha, added: d.added, hunks: d.hunks });
  }
  return out;
}

/**
 * Each line's base, followed from HEAD back through a file's commits (newest first, the oldest
 * the one that added it): the first commit whose diff adds the line, else the adding commit.
 * Null (blame decides) when the first-parent diffs are not exactly the commits the log found.
 */
function followLines(touches: readonly Touch[], diffs: readonly { sha: string; added: boolean; hunks: Hunk[] }[] | undefined, lines: readonly number[]): Map<number, Base> | null {
  if (!diffs || diffs.length !== touches.length) return null;
  for (let i = 0; i < touches.length; i++) {
    const d = diffs[i]!;
    const adding = i === touches.length - 1;
    if (d.sha !== touches[i]!.base.sha || d.added !== adding || (!adding && d.hunks.length === 0)) return null;
  }
  const bases = new Map<number, Base>();
  for (const line of lines) {
    let n = line;
    let i = 0;
    for (; i < touches.length - 1; i++) {
      const back = lineBefore(diffs[i]!.hunks, n);
      if (back === null) break;
      n = back;
    }
    bases.set(line, touches[i]!.base);
  }
  return bases;
}

/** Where new line `n` of a diff was before it: its old line, or null when the diff added it. */
export function lineBefore(hunks: readonly Hunk[], n: number): number | null {
  let offset = 0;
  for (const h of hunks) {
    if (h.newCount === 0 ? n <= h.newStart : n < h.newStart) return n - offset;
    if (n < h.newStart + h.newCount) return null;
    offset += h.newCount - h.oldCount;
  }
  return n - offset;
}

/** `git log --format=%x01%H %ct --name-status -z` output: commits and their changed paths. */
function parseNameStatus(out: Buffer): { sha: string; time: number; parents: number; changes: { status: string; paths: string[] }[] }[] {
  const commits = [];
  for (const record of out.toString('utf8').split('\x01')) {
    if (record === '') continue;
    const [head = '', ...rest] = record.split('\0');
    const [sha = '', time = '0', ...parents] = head.split(' ');
    const fields = rest.map((f) => f.replace(/^\n/, '')).filter((f) => f !== '');
    const changes: { status: string; paths: string[] }[] = [];
    for (let i = 0; i < fields.length; ) {
      const status = fields[i]!;
      const count = status.startsWith('R') || status.startsWith('C') ? 2 : 1;
      changes.push({ status: status[0]!, paths: fields.slice(i + 1, i + 1 + count) });
      i += 1 + count;
    }
    commits.push({ sha, time: Number(time), parents: parents.filter(Boolean).length, changes });
  }
  return commits;
}

function parseBlame(text: string): { byLine: Map<number, string>; timeOf: Map<string, number>; boundary: Set<string> } {
  const byLine = new Map<number, string>();
  const timeOf = new Map<string, number>();
  const boundary = new Set<string>();
  let sha = '';
  for (const line of text.split('\n')) {
    const head = /^([0-9a-f]{40,64}) \d+ (\d+)(?: \d+)?$/.exec(line);
    if (head) {
      sha = head[1]!;
      byLine.set(Number(head[2]), sha);
    } else if (line.startsWith('committer-time ')) {
      timeOf.set(sha, Number(line.slice('committer-time '.length)));
    } else if (line === 'boundary') {
      boundary.add(sha);
    }
  }
  return { byLine, timeOf, boundary };
}

interface GitObject {
  oid: string;
  data: Buffer;
}

/** Batch-read objects (`<rev>:<path>` or a revision expression) in one `git cat-file --batch`. */
async function catFiles(git: GitRunner, repo: string, names: readonly string[]): Promise<Map<string, GitObject | null>> {
  const out = new Map<string, GitObject | null>();
  const wanted = [...new Set(names)].filter((n) => !n.includes('\n'));
  if (wanted.length === 0) return out;
  const buf = await git.run(repo, ['cat-file', '--batch'], wanted.join('\n') + '\n');
  let at = 0;
  for (const name of wanted) {
    const nl = buf.indexOf(10, at);
    if (nl === -1) break;
    const header = buf.subarray(at, nl).toString('utf8');
    const m = /^([0-9a-f]+) (\w+) (\d+)$/.exec(header);
    if (!m) {
      out.set(name, null); // missing, ambiguous
      at = nl + 1;
      continue;
    }
    const size = Number(m[3]);
    out.set(name, { oid: m[1]!, data: buf.subarray(nl + 1, nl + 1 + size) });
    at = nl + 1 + size + 1;
  }
  return out;
}

/**
 * For every ref: the target file, its repository and the base there. Same repository: the scanned
 * file's base; an alias pinned in workspace.lock.json: the pin as the lockfile had it at the base;
 * any other alias: the target repository's last commit at or before the base's date.
 */
async function findTargets(pending: Pending[], ctx: Context, git: GitRunner, repoOf: (dir: string) => string | null): Promise<void> {
  // The relative refs' file: the first candidate that exists, else (a deleted file) the first
  // candidate that existed at the base commit.
  const needBase: { p: Pending; candidates: string[] }[] = [];
  // Thousands of refs name a few hundred files: ask the file system once per path.
  const seen = new Map<string, boolean>();
  const exists = (file: string) => {
    let hit = seen.get(file);
    if (hit === undefined) seen.set(file, (hit = fs.existsSync(file)));
    return hit;
  };
  for (const p of pending) {
    const dirs = p.input.searchDirs;
    const candidates = dirs.map((d) => path.resolve(d, p.input.spec.path));
    const found = candidates.findIndex(exists);
    if (found !== -1) {
      p.target = candidates[found];
      p.baseDir = dirs[found];
    } else needBase.push({ p, candidates });
  }
  const missingByRepo = new Map<string, { p: Pending; candidates: string[] }[]>();
  for (const n of needBase) {
    const repo = repoOf(path.dirname(n.candidates[0]!)) ?? n.p.scanRepo;
    groupInto(missingByRepo, repo, n);
  }
  await Promise.all([...missingByRepo].map(async ([repo, group]) => {
    const name = (p: Pending, c: string) => `${p.scanBase}:${toPosix(path.relative(repo, c))}`;
    const found = await isolated(() => catFiles(git, repo, group.flatMap(({ p, candidates }) => candidates.filter((c) => inside(repo, c)).map((c) => name(p, c)))));
    const objects = found instanceof GitError ? new Map<string, GitObject | null>() : found;
    for (const { p, candidates } of group) {
      const i = candidates.findIndex((c) => inside(repo, c) && objects.get(name(p, c)));
      p.target = candidates[i === -1 ? 0 : i];
      p.baseDir = p.input.searchDirs[i === -1 ? 0 : i];
    }
  }));

  const pinLookups: { p: Pending; lockfile: string; targetRepo: string }[] = [];
  const byDate: { p: Pending; targetRepo: string }[] = [];
  for (const p of pending) {
    const targetRepo = repoOf(path.dirname(p.target!)) ?? (p.input.alias ? repoOf(p.input.alias.target) : null);
    if (p.input.alias && !exists(p.input.alias.target)) {
      unknown(p.entry, `${shown(ctx, p.input.alias.target)} is not cloned (the folder does not exist)`);
      p.entry.notCloned = p.input.alias.target;
      continue;
    }
    if (!targetRepo) {
      unknown(p.entry, `${shown(ctx, p.input.alias?.target ?? path.dirname(p.target!))} is not a git repository`);
      continue;
    }
    p.targetRepo = targetRepo;
    if (targetRepo === p.scanRepo) p.targetBase = p.scanBase!;
    else if (p.input.alias?.source === 'workspace' && inside(p.scanRepo, p.input.alias.origin)) pinLookups.push({ p, lockfile: p.input.alias.origin, targetRepo });
    else byDate.push({ p, targetRepo });
  }

  // The lockfile as it was at each base: one batch per scanned repository.
  const lockName = (l: { p: Pending; lockfile: string }) => `${l.p.scanBase}:${toPosix(path.relative(l.p.scanRepo, l.lockfile))}`;
  const lockTexts = new Map<string, Map<string, GitObject | null> | GitError>();
  await Promise.all([...new Set(pinLookups.map((l) => l.p.scanRepo))].map(async (repo) => {
    lockTexts.set(repo, await isolated(() => catFiles(git, repo, pinLookups.filter((l) => l.p.scanRepo === repo).map(lockName))));
  }));
  const pinned: PinLookup[] = [];
  for (const l of pinLookups) {
    const texts = lockTexts.get(l.p.scanRepo)!;
    if (texts instanceof GitError) {
      unknown(l.p.entry, texts.message);
      continue;
    }
    const pin = pinIn(texts.get(lockName(l))?.data ?? null, l.p.input.alias!);
    if (pin) pinned.push({ p: l.p, pin, targetRepo: l.targetRepo });
    else byDate.push(l);
  }
  // Pins to commits or names: a few batch lookups per target repository; a failing repository
  // makes only its own refs unknown.
  await Promise.all([...new Set(pinned.map((x) => x.targetRepo))].map(async (repo) => {
    const group = pinned.filter((x) => x.targetRepo === repo);
    const failed = await isolated(() => resolvePins(git, ctx, repo, group));
    if (failed instanceof GitError) for (const x of group) unknown(x.p.entry, failed.message);
  }));
  // Unpinned: the last commit at or before the base's date, one rev-list per (repository, date).
  const dated = new Map<string, Promise<string | null>>();
  for (const { p, targetRepo } of byDate) {
    const key = `${targetRepo}\0${p.scanTime}`;
    if (!dated.has(key)) dated.set(key, git.tryRun(targetRepo, ['rev-list', '-1', `--before=${p.scanTime}`, 'HEAD', '--']).then((out) => (out ? out.toString('utf8').trim() || null : null)));
  }
  for (const { p, targetRepo } of byDate) {
    const sha = await dated.get(`${targetRepo}\0${p.scanTime}`)!;
    if (sha) p.targetBase = sha;
    else unknown(p.entry, `${shown(ctx, targetRepo)} has no commit at or before ${day(p.scanTime)}`);
  }
}

interface PinLookup {
  p: Pending;
  pin: string;
  targetRepo: string;
}

/** A pin that looks like an abbreviated or full commit name. */
const COMMIT_NAME = /^[0-9a-f]{4,64}$/i;

/**
 * The commit each pin names (docs/drift.md#branch-and-tag-pins): a commit name is that commit; any
 * other pin (or a commit name the repository lacks) names a branch or tag, taken as it was at the
 * base commit's date, its last commit at or before then. Of the refs bearing that name, the first
 * of `refs/remotes/origin/NAME`, `refs/heads/NAME`, any other remote's `NAME`, `refs/tags/NAME`.
 */
async function resolvePins(git: GitRunner, ctx: Context, repo: string, group: PinLookup[]): Promise<void> {
  const where = (x: PinLookup) => `(pinned in ${shown(ctx, x.p.input.alias!.origin)} at ${x.p.scanBase!.slice(0, 7)})`;
  // A lockfile is anyone's text: a pin longer than any name is no revision, and is never put on a command line.
  const tooLong = group.filter((x) => x.pin.length > MAX_REVISION_CHARS);
  for (const x of tooLong) unknown(x.p.entry, `the pin of ${shown(ctx, repo)}, a name of ${x.pin.length} characters, is no revision (at most ${MAX_REVISION_CHARS}) ${where(x)}`);
  if (tooLong.length > 0) group = group.filter((x) => x.pin.length <= MAX_REVISION_CHARS);
  const objects = await catFiles(git, repo, group.filter((x) => COMMIT_NAME.test(x.pin)).map((x) => `${x.pin}^{commit}`));
  const byName: PinLookup[] = [];
  for (const x of group) {
    const commit = COMMIT_NAME.test(x.pin) ? objects.get(`${x.pin}^{commit}`) : null;
    if (commit) x.p.targetBase = commit.oid;
    else byName.push(x);
  }
  if (byName.length === 0) return;
  const names = [...new Set(byName.map((x) => x.pin))];
  const patterns = names.flatMap((n) => [`refs/heads/${n}`, `refs/remotes/*/${n}`, `refs/tags/${n}`]);
  const listed: string[] = [];
  for (const batch of argBatches(patterns, PATHS_PER_CALL)) {
    listed.push(...(await git.run(repo, ['for-each-ref', '--format=%(refname)', '--', ...batch])).toString('utf8').split('\n').filter(Boolean));
  }
  const refFor = new Map<string, string>();
  for (const name of names) {
    const rank = (r: string) =>
      r === `refs/remotes/origin/${name}` ? 0 : r === `refs/heads/${name}` ? 1 : r.startsWith('refs/remotes/') && r.endsWith(`/${name}`) && r.split('/').length === 4 ? 2 : r === `refs/tags/${name}` ? 3 : 9;
    const best = listed.filter((r) => rank(r) < 9).sort((a, b) => rank(a) - rank(b) || (a < b ? -1 : 1))[0];
    if (best) refFor.set(name, best);
  }
  const dated = new Map<string, Promise<string | null>>();
  const refOf = (x: PinLookup) => refFor.get(x.pin);
  for (const x of byName) {
    const ref = refOf(x);
    const key = `${ref}\0${x.p.scanTime}`;
    if (ref && !dated.has(key)) dated.set(key, git.run(repo, ['rev-list', '-1', `--before=${x.p.scanTime}`, ref, '--']).then((out) => out.toString('utf8').trim() || null));
  }
  for (const x of byName) {
    const ref = refFor.get(x.pin);
    if (!ref) {
      const what = COMMIT_NAME.test(x.pin) ? 'commit, branch or tag' : 'branch or tag';
      unknown(x.p.entry, `${shown(ctx, repo)} has no ${what} ${x.pin} ${where(x)}`);
      continue;
    }
    const sha = await dated.get(`${ref}\0${x.p.scanTime}`)!;
    if (sha) x.p.targetBase = sha;
    else unknown(x.p.entry, `${shown(ctx, repo)} has no commit of ${ref.replace(/^refs\/(heads|remotes|tags)\//, '')} at or before ${day(x.p.scanTime)} ${where(x)}`);
  }
}

function day(time: number): string {
  return new Date(time * 1000).toISOString().slice(0, 10);
}

/** The result of a git step, or the GitError that ended it: one repository's failure is its refs' reason. */
async function isolated<T>(step: () => Promise<T>): Promise<T | GitError> {
  try {
    return await step();
  } catch (err) {
    if (err instanceof GitError) return err;
    throw err;
  }
}

/** `repos[].ref` of the alias's repository in a lockfile's text, or null. */
function pinIn(text: Buffer | null, alias: AliasEntry): string | null {
  if (!text) return null;
  try {
    const data = JSON.parse(text.toString('utf8')) as { repos?: unknown };
    if (!Array.isArray(data.repos)) return null;
    for (const r of data.repos as Record<string, unknown>[]) {
      const names = [r.alias, ...(Array.isArray(r.aliases) ? r.aliases : []), r.name];
      if (names.includes(alias.name) && typeof r.ref === 'string' && r.ref.length > 0) return r.ref;
    }
  } catch {
    return null; // a lockfile that did not parse at the base has no pin to give
  }
  return null;
}

function inside(root: string, p: string): boolean {
  const rel = path.relative(root, p);
  return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel);
}

function toPosix(p: string): string {
  return p.split(path.sep).join('/');
}

/** Lines of a text as compared: `\r\n` and `\n` end the same line, a BOM is not text. */
function linesOf(buf: Buffer | string): string[] {
  let text = typeof buf === 'string' ? buf : buf.toString('utf8');
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  if (text === '') return [];
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines.map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l));
}

/** The lines a range selector resolves to in a file of `count` lines (docs/reference.md#ref-specs). */
export function resolveSpan(sel: RangeSelector, count: number): LineSpan {
  let start = sel.start;
  let end = sel.end ?? count;
  if (sel.window) {
    start -= sel.window.before;
    end = sel.window.after === null ? count : end + sel.window.after;
  }
  return { start: Math.max(start, 1), end: Math.min(end, count) };
}

async function judge(pending: Pending[], git: GitRunner, baseFiles: boolean): Promise<void> {
  const byPair = new Map<string, Pending[]>();
  for (const p of pending) groupInto(byPair, `${p.targetRepo}\0${p.targetBase}`, p);
  // Old contents: one batch per target repository.
  const oldName = (p: Pending) => `${p.targetBase}:${toPosix(path.relative(p.targetRepo!, p.target!))}`;
  const oldTexts = new Map<string, GitObject | null>();
  const failed = new Map<string, GitError>();
  await Promise.all([...new Set(pending.map((p) => p.targetRepo!))].map(async (repo) => {
    const objects = await isolated(() => catFiles(git, repo, pending.filter((p) => p.targetRepo === repo).map(oldName)));
    if (objects instanceof GitError) failed.set(repo, objects);
    else for (const [k, v] of objects) oldTexts.set(`${repo}\0${k}`, v);
  }));
  const byName: Promise<void>[] = [];
  const currentLines = new Map<string, string[] | null>();
  const current = (file: string) => {
    if (!currentLines.has(file)) {
      let lines: string[] | null = null;
      try {
        lines = linesOf(fs.readFileSync(file));
      } catch {
        lines = null;
      }
      currentLines.set(file, lines);
    }
    return currentLines.get(file)!;
  };

  await Promise.all([...byPair.values()].map(async (group) => {
    const { targetRepo, targetBase } = group[0]!;
    const repo = targetRepo!;
    const base = targetBase!;
    const rels = [...new Set(group.map((p) => toPosix(path.relative(repo, p.target!))))];
    const result = failed.get(repo) ?? (await isolated(() => changesSince(git, repo, base, rels)));
    if (result instanceof GitError) {
      for (const p of group) unknown(p.entry, result.message);
      return;
    }
    const missing = group.filter((p) => !oldTexts.get(`${repo}\0${oldName(p)}`));
    // A path the base has whose object git cannot read: a partial clone or a damaged repository.
    const unreadable = missing.length > 0 ? await isolated(() => pathsAt(git, repo, base, missing.map((p) => toPosix(path.relative(repo, p.target!))))) : new Set<string>();
    for (const p of group) {
      p.entry.base = base;
      const old = oldTexts.get(`${repo}\0${oldName(p)}`);
      const rel = toPosix(path.relative(repo, p.target!));
      if (!old) {
        if (unreadable instanceof GitError) unknown(p.entry, unreadable.message);
        else if (unreadable.has(rel)) unknown(p.entry, `git cannot read ${p.input.spec.path} at ${base.slice(0, 7)} in ${repo}: its object is missing (a partial clone or a damaged repository)`);
        else unknown(p.entry, `${p.input.spec.path} did not exist at ${base.slice(0, 7)}`);
        continue;
      }
      const change = result.get(rel) ?? null;
      if (p.selector.kind === 'symbol') {
        byName.push(judgeSymbolRef(p as SymbolPending, old.data, change, repo));
        continue;
      }
      if (baseFiles) p.entry.baseFile = { text: old.data, target: p.target! };
      judgeOne(p as LinePending, linesOf(old.data), change, current, repo);
    }
  }));
  await Promise.all(byName);
}

type LinePending = Pending & { selector: RangeSelector };
type SymbolPending = Pending & { selector: SymbolSelector };

/** A symbol ref, judged by name (symbol-drift.ts) from the same old text and the same diff. */
async function judgeSymbolRef(p: SymbolPending, oldText: Buffer, change: FileChange | null, repo: string): Promise<void> {
  const now = change && change.newPath === null ? null : change?.newPath ? path.join(repo, change.newPath) : p.target!;
  const spec = p.input.spec as RefSpec & { selector: SymbolSelector };
  const { currentLines, ...verdict } = await judgeSymbol({ base: p.entry.base!, spec, ref: p.input.ref, oldText, now, baseDir: p.baseDir!, renamed: now !== null && now !== p.target });
  Object.assign(p.entry, verdict);
  if (currentLines) {
    // A changed symbol ref is a warning, and --accept records it as a line ref.
    p.entry.byName = true;
    p.entry.acceptKey = { repo: p.scanRepo, doc: toPosix(path.relative(p.scanRepo, p.input.file)), lines: linesHash(currentLines) };
  }
}

/**
 * What became of `rels` between `base` and the working tree, reading no other file's content: a
 * diff of the referenced paths only; when one of them is gone, renames are found over names only
 * (`--name-status`, no content in the output) and just those pairs are content-diffed
 * (docs/reference.md#drift-verdicts).
 */
async function changesSince(git: GitRunner, repo: string, base: string, rels: readonly string[]): Promise<RepoChanges> {
  const changes = await contentDiff(git, repo, base, rels);
  const gone = new Set([...changes.values()].filter((c) => c.newPath === null).map((c) => c.oldPath));
  if (gone.size === 0) return changes;
  const names = await git.run(repo, ['diff', '--no-ext-diff', '--no-textconv', '-M', '--name-status', '-z', base, '--']);
  const pairs: string[] = [];
  const fields = names.toString('utf8').split('\0');
  for (let i = 0; i + 1 < fields.length; ) {
    const status = fields[i]!;
    const two = status.startsWith('R') || status.startsWith('C');
    if (two && status.startsWith('R') && gone.has(fields[i + 1]!)) pairs.push(fields[i + 1]!, fields[i + 2]!);
    i += two ? 3 : 2;
  }
  for (const [k, v] of await contentDiff(git, repo, base, pairs)) changes.set(k, v);
  return changes;
}

async function contentDiff(git: GitRunner, repo: string, base: string, paths: readonly string[]): Promise<RepoChanges> {
  const changes: RepoChanges = new Map();
  for (const batch of argBatches(paths, PATHS_PER_CALL)) {
    const args = ['--literal-pathspecs', 'diff', '--no-color', '--no-ext-diff', '--no-textconv', '--src-prefix=a/', '--dst-prefix=b/', '-M', '-U0', base, '--', ...batch];
    for (const [k, v] of parseDiff((await git.run(repo, args)).toString('utf8'))) changes.set(k, v);
  }
  return changes;
}

/** Which of `rels` the tree of `base` holds (whether or not their objects can be read). */
async function pathsAt(git: GitRunner, repo: string, base: string, rels: readonly string[]): Promise<Set<string>> {
  const found = new Set<string>();
  for (const batch of argBatches(rels, PATHS_PER_CALL)) {
    const out = await git.run(repo, ['--literal-pathspecs', 'ls-tree', '-z', '--full-tree', '--name-only', base, '--', ...batch]);
    for (const name of out.toString('utf8').split('\0')) if (name !== '') found.add(name);
  }
  return found;
}

function judgeOne(p: LinePending, oldLines: string[], change: FileChange | null, current: (file: string) => string[] | null, repo: string): void {
  const entry = p.entry;
  const span = resolveSpan(p.selector, oldLines.length);
  if (span.start > span.end) {
    unknown(entry, `${p.input.spec.path} had ${oldLines.length} lines at ${entry.base!.slice(0, 7)}`);
    return;
  }
  const block = oldLines.slice(span.start - 1, span.end);
  entry.oldLines = block.length;
  entry.baseLines = block;
  if (change && change.newPath === null) {
    entry.status = 'deleted';
    return;
  }
  const newFile = change?.newPath ? path.join(repo, change.newPath) : p.target!;
  const renamed = newFile !== p.target;
  const lines = current(newFile);
  if (!lines) {
    entry.status = 'deleted';
    return;
  }
  const hunks: Hunk[] = change?.hunks ?? [];
  if (!renamed && sameAt(lines, block, span.start)) {
    entry.status = 'unchanged';
    return;
  }
  const hits = occurrences(lines, block);
  const mappedStart = mapLine(hunks, span.start);
  let at: number | null = null;
  if (hits.length === 1) at = hits[0]!;
  else if (hits.length > 1 && !mappedStart.edited && hits.includes(mappedStart.line)) at = mappedStart.line;
  if (at !== null) {
    entry.status = 'moved';
    entry.newRef = newRefFor(p, { start: at, end: at + block.length - 1 }, span, lines.length, renamed ? newFile : null);
    return;
  }
  entry.status = 'changed';
  const now = resolveSpan(p.selector, lines.length);
  entry.acceptKey = { repo: p.scanRepo, doc: toPosix(path.relative(p.scanRepo, p.input.file)), lines: linesHash(lines.slice(now.start - 1, Math.max(now.end, now.start - 1))) };
  let edited = 0;
  for (let n = span.start; n <= span.end; n++) if (mapLine(hunks, n).edited) edited++;
  // A rename git paired with enough edits can leave no hunk on these lines and still differ.
  entry.editedLines = edited > 0 ? edited : block.filter((l, i) => lines[mapLine(hunks, span.start + i).line - 1] !== l).length;
  const inside = editsInside(hunks, span.start, span.end);
  entry.insertedLines = inside.inserted;
  entry.deletedLines = inside.deleted;
  const from = mapLine(hunks, span.start).line;
  const to = Math.max(mapLine(hunks, span.end).line, from);
  entry.newRef = newRefFor(p, { start: Math.min(from, Math.max(lines.length, 1)), end: Math.min(to, Math.max(lines.length, 1)) }, span, lines.length, renamed ? newFile : null);
}

function sameAt(lines: readonly string[], block: readonly string[], start: number): boolean {
  if (start - 1 + block.length > lines.length) return false;
  return block.every((l, i) => lines[start - 1 + i] === l);
}

/** 1-based starts of every contiguous copy of `block` in `lines`. */
function occurrences(lines: readonly string[], block: readonly string[]): number[] {
  const hits: number[] = [];
  for (let i = 0; i + block.length <= lines.length; i++) {
    if (lines[i] !== block[0]) continue;
    if (sameAt(lines, block, i + 1)) hits.push(i + 1);
  }
  return hits;
}

/**
 * The ref with its lines at `span` (and its new path after a rename): the same alias, path and
 * form (a window keeps its window) when that form selects exactly `span` in the current file,
 * else the concrete `#Lstart-Lend`.
 */
function newRefFor(p: LinePending, span: LineSpan, oldSpan: LineSpan, count: number, renamedTo: string | null): string {
  const raw = p.input.ref;
  const hash = raw.indexOf('#');
  let head = raw.slice(0, hash);
  const alias = p.input.spec.alias;
  let refPath = p.input.spec.path;
  if (renamedTo) {
    // A relative path that would read as `alias:path` gets a `./`, as a printed spec does.
    refPath = toPosix(path.relative(p.baseDir!, renamedTo));
    if (!alias) refPath = safePath(refPath);
    const prefix = alias ? /^@?[A-Za-z][A-Za-z0-9_-]*:/.exec(head)![0] : '@';
    head = prefix + escapePath(refPath);
  }
  p.entry.target = { alias, path: refPath, renamed: renamedTo !== null, start: span.start, end: span.end, lines: count };
  const delta = span.start - oldSpan.start;
  const sel = p.selector;
  const shifted: RangeSelector = { kind: 'range', start: sel.start + delta, end: sel.end === null ? null : sel.end + delta, window: sel.window };
  const fits = shifted.start >= 1 && (shifted.end === null || shifted.end >= shifted.start);
  // A form that reaches past either end of the file selects fewer lines than it says (verify refs
  // warns that it clamps): a ref written anew says the lines it selects.
  if (fits && withinFile(shifted, count)) {
    const got = resolveSpan(shifted, count);
    if (got.start === span.start && got.end === span.end) {
      if (delta === 0) return head + raw.slice(hash);
      // Keep the writer's spelling (`L10-20`, `:5..10`), only the numbers change.
      const m = /^L(\d+)(?:(-L?)(\d*))?(:.*)?$/.exec(raw.slice(hash + 1));
      if (m) return `${head}#L${shifted.start}${m[2] ?? ''}${m[3] ? String(shifted.end) : ''}${m[4] ?? ''}`;
      return head + '#' + formatSelector(shifted);
    }
  }
  return head + formatSpan(span);
}

/** Whether a range selector names only lines the file has (before any clamping). */
function withinFile(sel: RangeSelector, count: number): boolean {
  const first = sel.start - (sel.window?.before ?? 0);
  const last = sel.end === null || (sel.window && sel.window.after === null) ? null : sel.end + (sel.window?.after ?? 0);
  return first >= 1 && (last === null || last <= count);
}

/** Push `item` onto the group of `key` (appending, not copying: a doc may hold thousands of refs). */
export function groupInto<K, V>(groups: Map<K, V[]>, key: K, item: V): void {
  const group = groups.get(key);
  if (group) group.push(item);
  else groups.set(key, [item]);
}
