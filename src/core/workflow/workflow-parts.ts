import path from 'node:path';
import type { Context } from '../../shared/context.js';
import { findUp } from '../../shared/paths.js';
import type { Confinement } from '../safe-read/confinement.js';
import { readTextFile } from '../safe-read/read-text-file.js';
import { IGNORE_FILE, walkFiles } from '../walk/collect-files.js';
import { readRules } from '../walk/gitignore.js';
import { type ConvReader, loadConv } from './load-conv.js';

/**
 * Parts: a `.conv` file that another workflow INCLUDEs relies on that workflow (its ALIAS, its
 * PROMPT), so it is checked as part of it, also when only the part is named, as pre-commit does
 * for a commit that touches only the part (docs/workflows.md#parts-included-files).
 *
 * The includers are looked for in the part's scope: the working tree of the git repository that
 * holds it; outside git, the working directory when the part is below it, else the part's own
 * folder. Default skipped folders and the scope's own `.sdqctlignore` are kept out (`-e` is not:
 * excluding a workflow from a check does not make its parts stand alone); the files named in the
 * run always count.
 */
export interface WorkflowPartsOptions {
  /** Files named in the run (absolute): candidates wherever they are. */
  named?: readonly string[];
  readFile?: ConvReader;
  /** The scope never leaves it (refcat mcp): outside, the scope is the working directory. */
  confine?: Confinement;
}

/** The include graph of one scope. */
interface ScopeGraph {
  /** Workflows nothing in the scope INCLUDEs, with every file each one reads (itself first). */
  roots: Map<string, readonly string[]>;
  /** Files some workflow of the scope INCLUDEs, directly or not. */
  included: Set<string>;
}

/** One INCLUDE directive on its own line (comments and prompt text aside, a cheap first look). */
const HAS_INCLUDE = /^[ \t]*INCLUDE(?:[ \t]|$)/m;

const isConv = (name: string) => name.toLowerCase().endsWith('.conv');

export class WorkflowParts {
  private readonly graphs = new Map<string, ScopeGraph>();

  constructor(
    private readonly ctx: Context,
    private readonly options: WorkflowPartsOptions = {},
  ) {}

  /** The folder searched for the workflows that include `file` (absolute). */
  scopeOf(file: string): string {
    const dotGit = findUp(path.dirname(file), '.git', { links: true });
    let scope = dotGit ? path.dirname(dotGit) : within(this.ctx.cwd, file) ? this.ctx.cwd : path.dirname(file);
    const confine = this.options.confine;
    if (confine && !confine.allows(scope)) scope = this.ctx.cwd;
    return scope;
  }

  /**
   * The top-level workflows (nothing in the scope includes them) that INCLUDE `file`, directly or
   * through other parts, sorted by path; empty when nothing includes it, or when only a cycle of
   * INCLUDEs does (then the file is checked on its own, and the cycle reported).
   */
  includersOf(file: string): string[] {
    const graph = this.graphOf(this.scopeOf(file));
    if (!graph.included.has(file)) return [];
    return [...graph.roots].filter(([root, files]) => root !== file && files.includes(file)).map(([root]) => root);
  }

  private graphOf(scope: string): ScopeGraph {
    let graph = this.graphs.get(scope);
    if (graph) return graph;
    const { readFile, confine } = this.options;
    const rules = readRules(path.join(scope, IGNORE_FILE));
    const candidates = new Set([...walkFiles(scope, this.ctx.cwd, rules, isConv, confine), ...(this.options.named ?? []).filter(isConv)]);
    const reads = new Map<string, readonly string[]>();
    const included = new Set<string>();
    for (const file of candidates) {
      if (confine && !confine.allows(file)) continue;
      let files: readonly string[];
      try {
        if (!HAS_INCLUDE.test(readFile ? readFile(file) : readTextFile(file))) continue;
        files = loadConv(file, { readFile }).files;
      } catch {
        continue; // an unreadable workflow includes nothing; checking it says why
      }
      reads.set(file, files);
      for (const f of files.slice(1)) included.add(f);
    }
    const roots = new Map([...reads].filter(([file]) => !included.has(file)).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
    graph = { roots, included };
    this.graphs.set(scope, graph);
    return graph;
  }
}

function within(dir: string, file: string): boolean {
  const rel = path.relative(dir, file);
  return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel);
}

/** A workflow to validate, and the named parts that are checked through it. */
export interface ValidationTarget {
  /** Absolute path of the workflow. */
  path: string;
  /** Named files (absolute) that this workflow INCLUDEs and that are checked as part of it. */
  parts: string[];
}

/**
 * What `validate` checks for `files` (absolute, in order): each file, except that a part is
 * replaced by every top-level workflow that includes it (WorkflowParts.includersOf), each
 * workflow once, where it is first met.
 */
export function validationTargets(files: readonly string[], ctx: Context, options: Omit<WorkflowPartsOptions, 'named'> = {}): ValidationTarget[] {
  const parts = new WorkflowParts(ctx, { ...options, named: files });
  const targets = new Map<string, ValidationTarget>();
  const target = (file: string) => {
    let t = targets.get(file);
    if (!t) targets.set(file, (t = { path: file, parts: [] }));
    return t;
  };
  for (const file of files) {
    const includers = parts.includersOf(file);
    if (includers.length === 0) target(file);
    for (const includer of includers) target(includer).parts.push(file);
  }
  return [...targets.values()];
}
