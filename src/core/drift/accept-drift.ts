import { lazyRequire } from '../../shared/lazy.js';
import path from 'node:path';
import type { Context } from '../../shared/context.js';
import { RefcatError, UsageError } from '../../shared/errors.js';
import { shownPath } from '../../shared/paths.js';
import { type Confinement, leadsOutside } from '../safe-read/confinement.js';
import { parseJson } from '../safe-read/data-file-syntax.js';
import { readTextFile, TextFileError } from '../safe-read/read-text-file.js';
import { writeFileAtomic } from '../safe-write/atomic-file.js';
import type { DriftEntry, DriftReport } from './drift-types.js';

/** Loaded on first use: node:crypto is a few ms of start-up for every command that links this file. */
const crypto = lazyRequire<typeof import('node:crypto')>('node:crypto');

/**
 * Accepting a reviewed `changed` ref (docs/drift.md#accepting-a-change): a file at the root of the
 * doc's repository, committed with the docs, lists each accepted ref by its doc (a path from that
 * root), the ref as written, and a hash of the lines the ref selects now. A `changed` ref whose
 * entry matches all three is `accepted` (exit 0). The doc's line is not part of the key, so lines
 * moving in the doc keep the acceptance; any change of the selected lines changes the hash, and the
 * ref is `changed` again.
 */
export const ACCEPT_FILE = 'refcat-accepted.json';

interface AcceptedRef {
  doc: string;
  ref: string;
  lines: string;
}

export function linesHash(lines: readonly string[]): string {
  return 'sha256:' + crypto().createHash('sha256').update(lines.join('\n')).digest('hex');
}

/**
 * The accepted refs of a repository's ACCEPT_FILE (none when there is no such file). With
 * `confine` (refcat mcp), one under the root that leads outside is refused before it is looked at.
 */
export function readAccepted(repo: string, confine?: Confinement): AcceptedRef[] {
  const file = path.join(repo, ACCEPT_FILE);
  if (confine && !confine.allowsFound(file)) throw new UsageError(`Refused: ${file} ${leadsOutside(confine.root)}`, { code: 'outside_root' });
  let text: string;
  try {
    // Bounded, regular files only: the file comes with the docs, and may be a link to /dev/zero.
    text = readTextFile(file);
  } catch (err) {
    if (err instanceof TextFileError && err.code === 'not_found') return [];
    throw new RefcatError(`Cannot read ${file}: ${(err as Error).message}`, { code: 'bad_accept_file' });
  }
  try {
    const data = parseJson(text) as { accepted?: unknown } | null;
    if (!data || typeof data !== 'object') throw new Error('top level must be an object');
    if (!Array.isArray(data.accepted)) throw new Error('"accepted" must be an array');
    return (data.accepted as Record<string, unknown>[]).filter(
      (a): a is Record<string, unknown> & AcceptedRef => typeof a?.doc === 'string' && typeof a.ref === 'string' && typeof a.lines === 'string',
    );
  } catch (err) {
    throw new RefcatError(`Invalid ${file}: ${(err as Error).message}`, { code: 'bad_accept_file' });
  }
}

/** Mark `changed` entries that their repository's ACCEPT_FILE accepts as `accepted` (`confine`: as readAccepted). */
export function applyAccepted(entries: readonly DriftEntry[], confine?: Confinement): void {
  const byRepo = new Map<string, Set<string>>();
  for (const e of entries) {
    if (e.status !== 'changed' || !e.acceptKey) continue;
    let keys = byRepo.get(e.acceptKey.repo);
    if (!keys) {
      keys = new Set(readAccepted(e.acceptKey.repo, confine).map((a) => keyOf(a.doc, a.ref, a.lines)));
      byRepo.set(e.acceptKey.repo, keys);
    }
    if (keys.has(keyOf(e.acceptKey.doc, e.ref, e.acceptKey.lines))) e.status = 'accepted';
  }
}

function keyOf(doc: string, ref: string, lines: string): string {
  return `${doc}\0${ref}\0${lines}`;
}

export interface DriftAcceptance {
  /** Absolute path of the scanned file. */
  file: string;
  line: number;
  ref: string;
  /** The ACCEPT_FILE it was recorded in. */
  acceptFile: string;
}

/**
 * `--accept`: record every `changed` ref of the report in its repository's ACCEPT_FILE (one atomic
 * replace per file, entries sorted so that the diff a reviewer reads is small) and mark it
 * `accepted`. Entries of other refs stay. With `dryRun` nothing is written.
 */
export function acceptDrift(report: DriftReport, ctx: Context, options: { dryRun?: boolean } = {}): DriftAcceptance[] {
  const byRepo = new Map<string, DriftEntry[]>();
  for (const e of report.entries) {
    if (e.status !== 'changed' || !e.acceptKey) continue;
    const list = byRepo.get(e.acceptKey.repo);
    if (list) list.push(e);
    else byRepo.set(e.acceptKey.repo, [e]);
  }
  const done: DriftAcceptance[] = [];
  for (const [repo, entries] of byRepo) {
    const all = new Map(readAccepted(repo).map((a) => [`${a.doc}\0${a.ref}`, a]));
    for (const e of entries) all.set(`${e.acceptKey!.doc}\0${e.ref}`, { doc: e.acceptKey!.doc, ref: e.ref, lines: e.acceptKey!.lines });
    const accepted = [...all.values()].sort((a, b) => (a.doc < b.doc ? -1 : a.doc > b.doc ? 1 : a.ref < b.ref ? -1 : a.ref > b.ref ? 1 : 0));
    const file = path.join(repo, ACCEPT_FILE);
    if (!options.dryRun) {
      const text = JSON.stringify({ version: 1, note: 'Changed refs a reviewer accepted: see docs/drift.md of refcat', accepted }, null, 2) + '\n';
      try {
        writeFileAtomic(file, text, { durable: true, pid: ctx.proc?.pid });
      } catch (err) {
        throw new RefcatError(`Cannot write ${shownPath(ctx.cwd, file)}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`, { code: 'unwritable' });
      }
      for (const e of entries) e.status = 'accepted';
    }
    for (const e of entries) done.push({ file: e.file, line: e.line, ref: e.ref, acceptFile: file });
  }
  report.counts.changed = report.entries.filter((e) => e.status === 'changed').length;
  report.counts.accepted = report.entries.filter((e) => e.status === 'accepted').length;
  return done;
}
