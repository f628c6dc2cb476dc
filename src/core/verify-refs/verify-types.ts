/** What `verify refs` takes and what it returns, apart from the stages that make it (verify-refs.ts). */
import type { Confinement } from '../safe-read/confinement.js';
import type { AliasResolver } from '../alias/resolve-aliases.js';
import type { ConvReader } from '../workflow/load-conv.js';
import type { SkippedFile } from '../walk/collect-files.js';
import type { DetectDriftOptions } from '../drift/detect-drift.js';
import type { DriftRefInput, DriftReport, UnresolvedDriftRef } from '../drift/drift-types.js';
import type { DriftFix } from '../drift/fix-drift.js';
import type { DriftAcceptance } from '../drift/accept-drift.js';
import type { SnippetReport } from '../snippets/judge-snippets.js';
import type { VersionMode } from '../versions/version-reader.js';
import type { RefFinding } from './ref-finding.js';

export interface VerifyRefsOptions {
  /** `-e/--exclude` globs. */
  exclude?: readonly string[];
  /** `--skip-ignored`: files named directly are kept out by `./.sdqctlignore` too (CollectOptions.skipIgnored). */
  skipIgnored?: boolean;
  /** Aliases of the command line and config files. */
  aliases?: AliasResolver;
  /** Propose existing files with the same name for refs to missing files. */
  suggestFixes?: boolean;
  /**
   * Refs into an alias folder that does not exist (an external not cloned) are warnings, one per
   * folder; every other ref is checked as usual (docs/workflows.md#externals-not-cloned-yet).
   */
  allowMissing?: boolean;
  /** Warnings (clamped ranges, CONTEXT-OPTIONAL matching nothing) fail the check too. */
  strict?: boolean;
  /**
   * Compare cited snippets with the code they cite (docs/snippets.md); default true. False
   * (`--no-snippets`): citations are still found and their refs checked.
   */
  snippets?: boolean;
  /** Called after each file is checked (for a progress line on a terminal). */
  onProgress?: (checked: number, total: number) => void;
  readFile?: ConvReader;
  /**
   * Refs to files this does not allow are refused before they are looked at, and get no drift
   * verdict (ExtractOptions.confine); a symlink leading outside it is collected unfollowed (CollectOptions.confine).
   */
  confine?: Confinement;
  /** Also say whether each line ref still points at the code it was written against (docs/reference.md#drift-verdicts). */
  drift?: {
    /** Compare against this revision instead of the commit that last changed the ref's line. */
    since?: string;
    /** Rewrite moved refs in place. */
    fix?: boolean;
    /** With fix: report what would be rewritten, write nothing. */
    dryRun?: boolean;
    /** Also refresh stale snippets that were verbatim copies at their base (docs/snippets.md#--fix-snippets). */
    fixSnippets?: boolean;
    /** Record every changed ref as reviewed (docs/drift.md#accepting-a-change). */
    accept?: boolean;
    /** The git runner (its concurrency, its process count) and the shortcuts of detectDrift. */
    git?: DetectDriftOptions['git'];
    blameEveryFile?: boolean;
  };
  /** `--worktree` reads pinned aliases' checkouts; `--pinned` makes a pin the clone lacks an error (docs/refs.md#refs-at-a-version). */
  versionMode?: VersionMode;
  /** Handed every ref found, as drift reads refs, once the scan is done (`refcat anchor`: docs/drift.md#anchoring). */
  onRefs?: (refs: readonly (DriftRefInput | UnresolvedDriftRef)[]) => void;
}

export interface VerifyRefsReport {
  filesScanned: number;
  /** Files with a scanned extension that `.sdqctlignore` or `--exclude` kept out. */
  skipped: SkippedFile[];
  refsFound: number;
  valid: number;
  broken: number;
  /** One per broken ref (a glob ref may break for several files). */
  errors: RefFinding[];
  warnings: RefFinding[];
  passed: boolean;
  /** Every cited snippet's verdict (absent with `snippets: false`). */
  snippets?: SnippetReport;
  /** With the `drift` option: a verdict for every ref found, and what --fix rewrote (or would). */
  drift?: DriftReport & { fixes: DriftFix[]; dryRun: boolean; acceptances?: DriftAcceptance[] };
}
