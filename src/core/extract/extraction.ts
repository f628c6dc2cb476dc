import type { Diagnostic } from '../../shared/errors.js';
import type { AliasResolver } from '../alias/resolve-aliases.js';
import type { RefSpec } from '../ref-spec/ref-spec.js';
import type { PatternBudget } from '../regex/pattern-search.js';
import type { Confinement } from '../safe-read/confinement.js';
import type { FileVersion, PreparedVersions, VersionPolicy } from '../versions/prepare-versions.js';
import type { WalkCache } from '../walk/walk-cache.js';
import type { ContentSpan } from './content-span.js';
import type { OutlineInfo } from './outline-select.js';
import type { ReadCache } from './read-cache.js';
import type { SymbolInfo } from './symbol-select.js';
import type { Redaction, SecretFinding, SecretScanner } from '../secrets/secret-scan.js';

/**
 * What extraction takes and gives (docs/reference.md#reading-files): its options, one file's
 * lines, a report; shared by extract.ts, resolve-files.ts and read-extraction.ts.
 */

export interface ExtractOptions {
  /** Base folder for relative refs and displayed paths (`--relative-to`); default ctx.cwd. */
  base?: string;
  /**
   * Folders a relative ref is looked up in, in order (default: [base]). A workflow passes
   * [its own folder, cwd] (docs/reference.md#validate).
   */
  searchDirs?: string[];
  aliases?: AliasResolver;
  /** `-C N`. */
  context?: number;
  /** Do not skip .gitignore'd files, node_modules/ and .git/ when expanding globs. */
  noIgnore?: boolean;
  /**
   * The CPU-time budget of every pattern search (shared: pass one budget to every extract() call of
   * a command). Default: a new budget of DEFAULT_PATTERN_BUDGET_MS for this call.
   */
  patternBudget?: PatternBudget;
  /** Only check refs and count lines; `lines` of the results stay empty. */
  checkOnly?: boolean;
  /**
   * With checkOnly: a whole-file ref is not opened (a named one is only checked to be a regular
   * file) and its `totalLines` is null. For `--list-files`, which needs the files, not their
   * contents: a binary file is listed, as a glob's walk found it (docs/reference.md).
   */
  probeWholeFiles?: boolean;
  /** Most characters one selection may hold (default 64 MiB): past it, a `too_large` error. */
  maxSelectionChars?: number;
  /** Longest `:block` / `:function` / `:class` body (default 10000 lines): past it, cut with a warning. */
  maxBlockLines?: number;
  /**
   * Read only the files this allows: any other is refused (`outside_root`) before it is looked at,
   * so the answer never depends on what it holds (refcat mcp, docs/reference.md#refcat-mcp). It is
   * also what messages may quote; without it, the root and the alias targets defined outside it.
   */
  confine?: Confinement;
  /** Checks: a pattern ref to a file no message may quote is not searched (docs/reference.md#limits-and-hostile-input). */
  unjudgedOutside?: boolean;
  /**
   * What messages may quote, for a caller that extracts ref by ref against one set of aliases
   * (`verify refs`: built once a run); without it, built once per call as `confine` says.
   */
  quotable?: (abs: string) => boolean;
  /**
   * Small files read once for a whole command (read-cache.ts): for a caller that checks many refs
   * into the same files against one snapshot of them, such as `verify refs`. Not for streaming.
   */
  readCache?: ReadCache;
  /** `--outline`: each file's outline instead of its lines (docs/refs.md#outlines---outline; prepareOutline() first). */
  outline?: boolean;
  /** What walks read of the tree, kept for a whole command (walk-cache.ts): many globs, one read of each folder. */
  walkCache?: WalkCache;
  /**
   * The refs that read a version (a pinned alias, `alias@REV:`, `--at`), read before the run
   * (versions/prepare-versions.ts, docs/refs.md#refs-at-a-version). Without it every ref reads the disk.
   */
  versions?: PreparedVersions;
  /** `--worktree`, `--pinned` and `--at REV`: which versions are read (docs/refs.md#refs-at-a-version). */
  versionPolicy?: VersionPolicy;
  /**
   * The secret check (docs/refs.md#secrets): files are scanned and redacted as its mode says.
   * Without it extractSteps() makes one that redacts, relative to `base`.
   */
  secrets?: SecretScanner;
}

/** One file's extracted lines with everything a renderer needs. */
export interface Extraction {
  /** The ref as the user wrote it (for a glob: the glob ref). */
  ref: string;
  /** Normalized spec of exactly the selected lines (docs/reference.md#ref-specs); null when nothing was selected. */
  spec: string | null;
  alias: string | null;
  /** Absolute path of the file read. */
  path: string;
  /** Path relative to `displayBase`, `/`-separated. */
  relPath: string;
  /** Path to show: `relPath`, or `alias:relPath` for alias refs. */
  displayPath: string;
  /** The folder `displayPath` is relative to (the alias root for alias refs). */
  displayBase: string;
  language: string;
  /** True when no selector was given: the whole file. */
  wholeFile: boolean;
  lineStart: number;
  /** Last selected line; `lineStart - 1` when nothing was selected. */
  lineEnd: number;
  totalLines: number | null;
  wasClamped: boolean;
  /** The selected lines, without their terminators (empty when `onDisk` is set). */
  lines: string[];
  /**
   * Set only by extractSteps() with `onDisk`: the lines are still in the file, to be streamed
   * (docs/reference.md#streaming-and-memory). Valid until the next step is taken: its descriptor
   * is closed then, and the buffer its `bytes` view is read into again.
   */
  onDisk?: ContentSpan;
  /** Set for a symbol ref: the declaration it named. */
  symbol?: SymbolInfo;
  /** Set with `outline`: `lines` are the outline's. */
  outline?: OutlineInfo;
  /** The full sha of the commit the lines were read at (docs/refs.md#refs-at-a-version); absent: the disk, at no version. */
  commit?: string;
  /**
   * Set for a ref that named its revision (`alias@REV:`, `--at`): the file as a ref that reads the
   * same version back (`alias@<sha>:path`), which `--list-files` and `--validate-only` show.
   */
  fileSpec?: string;
  /** Set when a secret was found in the selected lines: the lines redacted, by rule (docs/refs.md#secrets). */
  redacted?: Redaction[];
  /** With `redacted`: what was found, where (never the value). */
  secrets?: SecretFinding[];
}

export interface ExtractReport {
  results: Extraction[];
  errors: Diagnostic[];
  warnings: Diagnostic[];
}

/** A file a ref names, found on disk (or not yet checked). */
export interface ResolvedFile {
  ref: RefSpec;
  /** The ref text for messages about this one file (for globs: the concrete file). */
  refText: string;
  path: string;
  /** Path relative to `displayBase`, `/`-separated (the path part of normalized specs). */
  relPath: string;
  displayPath: string;
  displayBase: string;
  /** The file is one match of a glob. */
  glob: boolean;
  /** The version it is read at (a pinned alias, a revision); absent: the file on disk. */
  version?: FileVersion;
}

/** What one file of a ref gave (a result and its warnings), or what a ref failed with. */
export interface ExtractStep {
  result?: Extraction;
  warnings: Diagnostic[];
  errors: Diagnostic[];
}

/** How extractSteps() hands out what it reads. */
export interface StreamOptions {
  /**
   * Whole files and line ranges are measured, not read into memory: their results carry `onDisk`
   * (the file stays open until the next step is taken) instead of `lines`.
   */
  onDisk?: boolean;
  /**
   * With onDisk: `onDisk.bytes` is lent, a view of a read buffer that is read into again once the
   * next step is taken, so whatever keeps bytes past it copies them (the CLI's writer does). A
   * glob then reads its thousands of files into a few buffers. Without it each result's bytes are
   * its own.
   */
  lendBytes?: boolean;
}
