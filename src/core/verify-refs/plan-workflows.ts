import type { Context } from '../../shared/context.js';
import { RefError } from '../../shared/errors.js';
import { shownPath } from '../../shared/paths.js';
import type { Confinement } from '../safe-read/confinement.js';
import type { ConversationFile } from '../workflow/conv-types.js';
import { type ConvReader, loadConv } from '../workflow/load-conv.js';
import { WorkflowParts } from '../workflow/workflow-parts.js';

/** A workflow, loaded once: the files whose refs it checks (planWorkflows). */
export interface PlannedWorkflow {
  file: string;
  /** The workflow with its INCLUDEs spliced in, or why it could not be read. */
  conv: ConversationFile | RefError;
  owns: Set<string>;
  /**
   * Workflows the scan did not name that INCLUDE this file (or another file they own) and are
   * checked just before it, for the scanned files they own (a part named alone).
   */
  through: PlannedWorkflow[];
}

const isWorkflow = (file: string): boolean => file.toLowerCase().endsWith('.conv');

/**
 * Which workflow checks the refs of each scanned `.conv` file (the other files of `scanned` are docs): each ref once per run, at its own
 * file and line (docs/reference.md#verify-refs). A file another workflow INCLUDEs is checked as
 * part of the first (in scan order) scanned workflow that includes it, with that workflow's ALIAS
 * and VALIDATION-MODE, since a part means its refs in its includer; workflows nothing includes
 * come first, so a part met before its includer is still checked through it. A part no scanned
 * workflow includes is checked through the first workflow of its scope that does (`parts`,
 * docs/workflows.md#parts-included-files), for the scanned files only.
 */
export function planWorkflows(scanned: readonly string[], ctx: Context, options: { readFile?: ConvReader; confine?: Confinement }): Map<string, PlannedWorkflow> {
  const paths = scanned.filter(isWorkflow);
  const parts = paths.length > 0 ? new WorkflowParts(ctx, { named: paths, readFile: options.readFile, confine: options.confine }) : undefined;
  const loading = { readFile: options.readFile, display: (p: string) => shownPath(ctx.cwd, p) };
  const loaded = (file: string): PlannedWorkflow => {
    let conv: ConversationFile | RefError;
    try {
      conv = loadConv(file, loading);
    } catch (err) {
      if (!(err instanceof RefError)) throw err;
      conv = err;
    }
    return { file, conv, owns: new Set(), through: [] };
  };
  const planned = new Map(paths.map((file) => [file, loaded(file)]));
  const included = new Set<string>();
  for (const w of planned.values()) if (!(w.conv instanceof RefError)) for (const f of w.conv.files) if (f !== w.file) included.add(f);
  // Includers outside the scan, for the scanned parts that no scanned workflow includes.
  const outside = new Map<string, PlannedWorkflow>();
  for (const file of paths) {
    if (!parts || included.has(file)) continue;
    const includers = parts.includersOf(file);
    if (includers.length === 0 || includers.some((i) => planned.has(i))) continue;
    if (!outside.has(includers[0]!)) outside.set(includers[0]!, loaded(includers[0]!));
  }
  const taken = new Set<string>();
  const order = [...outside.values(), ...[...planned.values()].sort((a, b) => Number(included.has(a.file)) - Number(included.has(b.file)))];
  for (const w of order) {
    if (w.conv instanceof RefError) continue;
    const isOutside = outside.get(w.file) === w;
    for (const f of w.conv.files) {
      if (taken.has(f) || (isOutside && !planned.has(f))) continue;
      taken.add(f);
      w.owns.add(f);
    }
    // Checked just before the first scanned file it owns.
    const first = isOutside ? paths.find((p) => w.owns.has(p)) : undefined;
    if (first !== undefined) planned.get(first)!.through.push(w);
  }
  return planned;
}
