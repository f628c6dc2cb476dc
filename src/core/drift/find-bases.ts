import path from 'node:path';
import type { Context } from '../../shared/context.js';
import { UsageError } from '../../shared/errors.js';
import { MAX_REVISION_CHARS } from '../git/arg-batches.js';
import { blameLines } from '../git/blame.js';
import type { GitRunner } from '../git/git-runner.js';
import { isShallow } from '../git/repository.js';
import { commitOf, type CommitStamp } from '../git/revisions.js';
import { basesWithoutBlame } from './bases-from-log.js';
import { groupInto } from './drift-types.js';
import { type Pending, shown, unknown } from './pending-ref.js';

const ZERO_SHA = /^0+$/;

/** From this many scanned files on, bases are found without a blame each where logs prove them. */
const ADDED_ONCE_MIN_FILES = 4;

/** The base of every ref in its scanned file's repository: blame (one per file), or --since. */
export async function findBases(pending: Pending[], ctx: Context, git: GitRunner, since: string | undefined, blameEveryFile: boolean): Promise<void> {
  if (since !== undefined) {
    await basesSince(pending, ctx, git, since);
    return;
  }
  const byFile = new Map<string, Pending[]>();
  for (const p of pending) groupInto(byFile, p.input.file, p);
  const known = byFile.size >= ADDED_ONCE_MIN_FILES && !blameEveryFile ? await basesWithoutBlame(byFile, git) : new Map<string, Map<number, CommitStamp>>();
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

/** --since: every ref's base is that revision, in its scanned file's repository. */
async function basesSince(pending: Pending[], ctx: Context, git: GitRunner, since: string): Promise<void> {
  // git would read `-x` as an option (`--output=FILE` writes a file): a revision never starts so.
  if (since.startsWith('-')) throw new UsageError(`Unknown revision for --since: ${since} (a revision, not an option)`, { code: 'bad_revision' });
  if (since.length > MAX_REVISION_CHARS) {
    throw new UsageError(`Unknown revision for --since: a name of ${since.length} characters is no revision (at most ${MAX_REVISION_CHARS})`, { code: 'bad_revision' });
  }
  const byRepo = new Map<string, CommitStamp>();
  for (const repo of new Set(pending.map((p) => p.scanRepo))) {
    const rev = await commitOf(git, repo, since);
    if (!rev) {
      const shallow = isShallow(repo) ? ', a shallow clone: fetch the full history' : '';
      throw new UsageError(`Unknown revision for --since: ${since} (in ${shown(ctx, repo)}${shallow})`, { code: 'bad_revision' });
    }
    byRepo.set(repo, rev);
  }
  for (const p of pending) {
    const rev = byRepo.get(p.scanRepo)!;
    p.scanBase = rev.sha;
    p.scanTime = rev.time;
  }
}

/** The base of each ref of one scanned file: the commit of its line, from one `git blame`. */
async function blameInto(file: string, group: Pending[], ctx: Context, git: GitRunner): Promise<void> {
  const repo = group[0]!.scanRepo;
  const blame = await blameLines(git, repo, path.relative(repo, file), group.map((p) => p.input.line));
  if (blame === null) return; // not committed yet: written against the working tree
  const { byLine, timeOf, boundary } = blame;
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
