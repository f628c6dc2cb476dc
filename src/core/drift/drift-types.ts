/**
 * The words every file of drift shares (what a ref is, what its verdict says, what --fix left and
 * what --accept records), kept below the files that detect, fix and accept, so that none of those
 * imports another for a type.
 */
import type { AliasEntry } from '../alias/resolve-aliases.js';
import type { LineSpan, RangeSelector, RefSpec, SymbolSelector } from '../ref-spec/ref-spec.js';

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
 * The alias entry a ref names: null for none, undefined for a name no source defines. `.`
 * (`.@REV:path`) names no alias but the scanned file's own repository (docs/refs.md#revision-refs):
 * with no alias, detectDrift reads its revision there, as it reads an `alias@REV:` ref's in the
 * alias's repository.
 */
export function driftAlias(spec: RefSpec, aliases: { lookup(name: string): AliasEntry | undefined }): AliasEntry | null | undefined {
  return spec.alias === null || spec.alias === '.' ? null : aliases.lookup(spec.alias);
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

/** A scanned file --fix left as it was, and why (docs/reference.md#drift-verdicts). */
export interface DriftNotFixed {
  /** Absolute path of the scanned file. */
  file: string;
  /** How many moved refs it holds that were not rewritten. */
  refs: number;
  reason: string;
  /**
   * `unwritable` and `outside` fail the run; `changed`, `interrupted`, `no_round_trip` (one ref
   * whose new form would not read back as the same file and lines) and `review_first` (one ref on
   * a line that also holds a changed or deleted ref) are warnings.
   */
  kind: 'changed' | 'outside' | 'unwritable' | 'interrupted' | 'no_round_trip' | 'review_first';
  /** no_round_trip and review_first: the ref's line and what it would have become. */
  line?: number;
  ref?: string;
  newRef?: string;
}

/** What identifies a `changed` ref for acceptance; set by detectDrift. */
export interface AcceptKey {
  /** Root of the doc's repository, where ACCEPT_FILE is. */
  repo: string;
  /** The doc's path from that root, `/`-separated. */
  doc: string;
  /** `sha256:` of the lines the ref selects now, joined by `\n`. */
  lines: string;
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

/** Push `item` onto the group of `key` (appending, not copying: a doc may hold thousands of refs). */
export function groupInto<K, V>(groups: Map<K, V[]>, key: K, item: V): void {
  const group = groups.get(key);
  if (group) group.push(item);
  else groups.set(key, [item]);
}
