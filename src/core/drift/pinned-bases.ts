import path from 'node:path';
import type { Context } from '../../shared/context.js';
import type { AliasEntry } from '../alias/resolve-aliases.js';
import { MAX_REVISION_CHARS } from '../git/arg-batches.js';
import { GitError } from '../git/git-runner.js';
import type { GitRunner } from '../git/git-runner.js';
import { type GitObject, readObjects } from '../git/read-objects.js';
import { lastCommitBefore, refsNamed } from '../git/revisions.js';
import { groupInto } from './drift-types.js';
import { day, isolated, type Pending, shown, toPosix, unknown } from './pending-ref.js';

/** A ref through an alias that a workspace lockfile of the scanned repository defines. */
export interface LockfilePin {
  p: Pending;
  lockfile: string;
  targetRepo: string;
}

interface PinLookup {
  p: Pending;
  pin: string;
  targetRepo: string;
}

/** A pin that looks like an abbreviated or full commit name. */
const COMMIT_NAME = /^[0-9a-f]{4,64}$/i;

/**
 * The base of each ref whose lockfile, as it was at the ref's base, pins its alias: the lockfile
 * is read in one batch per scanned repository, the pins looked up in a few batches per target
 * repository; a failing repository makes only its own refs unknown. Returns the lookups whose
 * lockfile had no pin for the alias: they are dated like any other alias.
 */
export async function pinnedBases(pinLookups: readonly LockfilePin[], ctx: Context, git: GitRunner): Promise<LockfilePin[]> {
  // Thousands of refs share a few (lockfile, base) pairs: each name is built, each lockfile parsed, once.
  const rels = new Map<string, string>();
  const lockName = (l: LockfilePin) => {
    const key = `${l.p.scanRepo}\0${l.lockfile}`;
    let rel = rels.get(key);
    if (rel === undefined) rels.set(key, (rel = toPosix(path.relative(l.p.scanRepo, l.lockfile))));
    return `${l.p.scanBase}:${rel}`;
  };
  const names = pinLookups.map(lockName);
  const byRepo = new Map<string, string[]>();
  pinLookups.forEach((l, i) => groupInto(byRepo, l.p.scanRepo, names[i]!));
  const lockTexts = new Map<string, Map<string, GitObject | null> | GitError>();
  await Promise.all([...byRepo].map(async ([repo, repoNames]) => {
    lockTexts.set(repo, await isolated(() => readObjects(git, repo, repoNames)));
  }));
  const parsed = new Map<string, LockRepo[] | null>();
  const pinned: PinLookup[] = [];
  const unpinned: LockfilePin[] = [];
  for (const [i, l] of pinLookups.entries()) {
    const name = names[i]!;
    const texts = lockTexts.get(l.p.scanRepo)!;
    if (texts instanceof GitError) {
      unknown(l.p.entry, texts.message);
      continue;
    }
    const lock = texts.get(name) ?? null;
    let repos = lock ? parsed.get(lock.oid) : null;
    if (lock && repos === undefined) parsed.set(lock.oid, (repos = lockRepos(lock.data)));
    const pin = pinIn(repos ?? null, l.p.input.alias!);
    if (pin) pinned.push({ p: l.p, pin, targetRepo: l.targetRepo });
    else unpinned.push(l);
  }
  await Promise.all([...new Set(pinned.map((x) => x.targetRepo))].map(async (repo) => {
    const group = pinned.filter((x) => x.targetRepo === repo);
    const failed = await isolated(() => resolvePins(git, ctx, repo, group));
    if (failed instanceof GitError) for (const x of group) unknown(x.p.entry, failed.message);
  }));
  return unpinned;
}

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
  const objects = await readObjects(git, repo, group.filter((x) => COMMIT_NAME.test(x.pin)).map((x) => `${x.pin}^{commit}`));
  const byName: PinLookup[] = [];
  for (const x of group) {
    const commit = COMMIT_NAME.test(x.pin) ? objects.get(`${x.pin}^{commit}`) : null;
    if (commit) x.p.targetBase = commit.oid;
    else byName.push(x);
  }
  if (byName.length === 0) return;
  const refFor = await branchesAndTags(git, repo, [...new Set(byName.map((x) => x.pin))]);
  const dated = new Map<string, Promise<string | null>>();
  for (const x of byName) {
    const ref = refFor.get(x.pin);
    const key = `${ref}\0${x.p.scanTime}`;
    if (ref && !dated.has(key)) dated.set(key, lastCommitBefore(git, repo, ref, x.p.scanTime));
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

/** By name: the ref a pin that is no commit means, in the order resolvePins says. */
async function branchesAndTags(git: GitRunner, repo: string, names: readonly string[]): Promise<Map<string, string>> {
  const listed = await refsNamed(git, repo, names.flatMap((n) => [`refs/heads/${n}`, `refs/remotes/*/${n}`, `refs/tags/${n}`]));
  const refFor = new Map<string, string>();
  for (const name of names) {
    const rank = (r: string) =>
      r === `refs/remotes/origin/${name}` ? 0 : r === `refs/heads/${name}` ? 1 : r.startsWith('refs/remotes/') && r.endsWith(`/${name}`) && r.split('/').length === 4 ? 2 : r === `refs/tags/${name}` ? 3 : 9;
    const best = listed.filter((r) => rank(r) < 9).sort((a, b) => rank(a) - rank(b) || (a < b ? -1 : 1))[0];
    if (best) refFor.set(name, best);
  }
  return refFor;
}

type LockRepo = Record<string, unknown>;

/** A lockfile's `repos`, or null when it has none. */
function lockRepos(text: Buffer): LockRepo[] | null {
  try {
    const data = JSON.parse(text.toString('utf8')) as { repos?: unknown } | null;
    return data !== null && typeof data === 'object' && Array.isArray(data.repos) ? (data.repos as LockRepo[]) : null;
  } catch {
    return null; // a lockfile that did not parse at the base has no pin to give
  }
}

/** `repos[].ref` of the alias's repository in a lockfile's `repos`, or null. */
function pinIn(repos: readonly LockRepo[] | null, alias: AliasEntry): string | null {
  if (!repos) return null;
  for (const r of repos) {
    // An entry that is null or missing spoils the lockfile: it gives no pin at all.
    if (r === null || r === undefined) return null;
    const names = [r.alias, ...(Array.isArray(r.aliases) ? r.aliases : []), r.name];
    if (names.includes(alias.name) && typeof r.ref === 'string' && r.ref.length > 0) return r.ref;
  }
  return null;
}
