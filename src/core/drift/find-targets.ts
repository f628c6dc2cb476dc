import fs from 'node:fs';
import path from 'node:path';
import type { Context } from '../../shared/context.js';
import { GitError } from '../git/git-runner.js';
import type { GitRunner } from '../git/git-runner.js';
import { type GitObject, readObjects } from '../git/read-objects.js';
import { headCommitBefore } from '../git/revisions.js';
import { groupInto } from './drift-types.js';
import { day, inside, isolated, type Pending, shown, toPosix, unknown } from './pending-ref.js';
import { type LockfilePin, pinnedBases } from './pinned-bases.js';

type RepoOf = (dir: string) => string | null;

/**
 * For every ref: the target file, its repository and the base there. Same repository: the scanned
 * file's base; an alias pinned in workspace.lock.json: the pin as the lockfile had it at the base;
 * any other alias: the target repository's last commit at or before the base's date.
 */
export async function findTargets(pending: Pending[], ctx: Context, git: GitRunner, repoOf: RepoOf): Promise<void> {
  // Thousands of refs name a few hundred files: ask the file system once per path.
  const seen = new Map<string, boolean>();
  const exists = (file: string) => {
    let hit = seen.get(file);
    if (hit === undefined) seen.set(file, (hit = fs.existsSync(file)));
    return hit;
  };
  await targetFiles(pending, git, repoOf, exists);
  const { pinLookups, byDate } = targetRepos(pending, ctx, repoOf, exists);
  byDate.push(...(await pinnedBases(pinLookups, ctx, git)));
  await datedBases(byDate, ctx, git);
}

/**
 * The relative refs' file: the first candidate that exists, else (a deleted file) the first
 * candidate that existed at the base commit.
 */
async function targetFiles(pending: Pending[], git: GitRunner, repoOf: RepoOf, exists: (file: string) => boolean): Promise<void> {
  const needBase: { p: Pending; candidates: string[] }[] = [];
  // The same (folder, path) pairs come back ref after ref: each is resolved once.
  const resolved = new Map<string, string>();
  const resolve = (dir: string, rel: string) => {
    const key = `${dir}\0${rel}`;
    let abs = resolved.get(key);
    if (abs === undefined) resolved.set(key, (abs = path.resolve(dir, rel)));
    return abs;
  };
  for (const p of pending) {
    const dirs = p.input.searchDirs;
    const candidates = dirs.map((d) => resolve(d, p.input.spec.path));
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
    const found = await isolated(() => readObjects(git, repo, group.flatMap(({ p, candidates }) => candidates.filter((c) => inside(repo, c)).map((c) => name(p, c)))));
    const objects = found instanceof GitError ? new Map<string, GitObject | null>() : found;
    for (const { p, candidates } of group) {
      const i = candidates.findIndex((c) => inside(repo, c) && objects.get(name(p, c)));
      p.target = candidates[i === -1 ? 0 : i];
      p.baseDir = p.input.searchDirs[i === -1 ? 0 : i];
    }
  }));
}

interface DatedLookup {
  p: Pending;
  targetRepo: string;
}

/**
 * Each target's repository. In the scanned file's own, the base is the scanned file's; refs
 * through an alias that a workspace lockfile in the scanned repository defines are looked up by
 * its pin (`pinLookups`); the others by date (`byDate`).
 */
function targetRepos(pending: Pending[], ctx: Context, repoOf: RepoOf, exists: (file: string) => boolean): { pinLookups: LockfilePin[]; byDate: DatedLookup[] } {
  const pinLookups: LockfilePin[] = [];
  const byDate: DatedLookup[] = [];
  const lockfileInside = new Map<string, boolean>();
  const defines = (repo: string, lockfile: string) => {
    const key = `${repo}\0${lockfile}`;
    let hit = lockfileInside.get(key);
    if (hit === undefined) lockfileInside.set(key, (hit = inside(repo, lockfile)));
    return hit;
  };
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
    else if (p.input.alias?.source === 'workspace' && defines(p.scanRepo, p.input.alias.origin)) pinLookups.push({ p, lockfile: p.input.alias.origin, targetRepo });
    else byDate.push({ p, targetRepo });
  }
  return { pinLookups, byDate };
}

/** Unpinned: the last commit at or before the base's date, one rev-list per (repository, date). */
async function datedBases(byDate: readonly DatedLookup[], ctx: Context, git: GitRunner): Promise<void> {
  const dated = new Map<string, Promise<string | null>>();
  for (const { p, targetRepo } of byDate) {
    const key = `${targetRepo}\0${p.scanTime}`;
    if (!dated.has(key)) dated.set(key, headCommitBefore(git, targetRepo, p.scanTime));
  }
  for (const { p, targetRepo } of byDate) {
    const sha = await dated.get(`${targetRepo}\0${p.scanTime}`)!;
    if (sha) p.targetBase = sha;
    else unknown(p.entry, `${shown(ctx, targetRepo)} has no commit at or before ${day(p.scanTime)}`);
  }
}
