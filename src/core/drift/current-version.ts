import type { Context } from '../../shared/context.js';
import type { GitError, GitRunner } from '../git/git-runner.js';
import { refsNamed } from '../git/revisions.js';
import type { VersionMode } from '../versions/version-reader.js';
import { isolated, type Pending, unknown } from './pending-ref.js';

/** A revision that is a commit name: it never moves. */
const COMMIT_NAME = /^[0-9a-f]{4,64}$/i;

/**
 * Drift's current version (docs/drift.md#pinned-aliases): for a ref into a pinned alias, the commit
 * the lockfile pins now, as extraction reads it, so that drift explains exactly the lockfile's
 * re-pins however far the clone lags or leads; a pin the clone lacks leaves the working tree (the
 * scan's warning says so), or under `--pinned` makes the ref unknown. `--worktree`: the working
 * tree for every ref. Sets `current` on the refs it applies to.
 */
export async function pinnedCurrents(pending: readonly Pending[], ctx: Context, git: GitRunner, mode: VersionMode): Promise<void> {
  if (mode === 'worktree') return;
  // A pin names a commit of the alias's own clone (docs/refs.md#refs-at-a-version).
  const pinned = pending.filter((p) => p.input.alias?.pin !== undefined && p.input.spec.rev === undefined && p.targetRepo === p.input.alias.target);
  if (pinned.length === 0) return;
  const { VersionReader } = await import('../versions/version-reader.js');
  const reader = new VersionReader(ctx, { git, mode });
  try {
    // Thousands of refs share a few pins: each is looked up, and waited for, once.
    const states = new Map<string, Promise<Awaited<ReturnType<typeof reader.pinState>> | GitError>>();
    for (const p of pinned) {
      const { target, pin } = p.input.alias!;
      const key = `${target}\0${pin}`;
      if (!states.has(key)) states.set(key, isolated(() => reader.pinState(target, pin!)));
    }
    const found = new Map<string, Awaited<ReturnType<typeof reader.pinState>> | GitError>();
    await Promise.all([...states].map(async ([key, state]) => found.set(key, await state)));
    for (const p of pinned) {
      const { target, pin, name } = p.input.alias!;
      const state = found.get(`${target}\0${pin}`)!;
      if (state instanceof Error) unknown(p.entry, state.message);
      else if (state.pinned !== null) p.current = state.pinned;
      else if (mode === 'pinned') unknown(p.entry, `${name}: the lockfile pins ${pin}, and ${state.why ?? 'the clone does not have it'}`);
    }
  } finally {
    reader.close();
  }
}

/**
 * Whether a revision ref names a version that never moves (a commit name, or a tag of its
 * repository): its drift verdict is `anchored`. One `for-each-ref` per repository asked.
 */
export async function fixedRevisions(refs: readonly { rev: string; repo: string }[], git: GitRunner): Promise<Set<string>> {
  const fixed = new Set<string>();
  const byRepo = new Map<string, string[]>();
  for (const r of refs) {
    if (COMMIT_NAME.test(r.rev)) fixed.add(`${r.repo}\0${r.rev}`);
    else if (!/[~^]/.test(r.rev)) byRepo.set(r.repo, [...(byRepo.get(r.repo) ?? []), r.rev]);
  }
  await Promise.all([...byRepo].map(async ([repo, revs]) => {
    const tags = await isolated(() => refsNamed(git, repo, [...new Set(revs)].map((r) => `refs/tags/${r}`)));
    if (tags instanceof Error) return;
    for (const t of tags) fixed.add(`${repo}\0${t.slice('refs/tags/'.length)}`);
  }));
  return fixed;
}
