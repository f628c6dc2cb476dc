import type { Finding } from '../../shared/errors.js';

/** One finding of `verify refs` (docs/reference.md#verify-refs), as the report lists it. */
export interface RefFinding extends Finding {
  /** With suggestFixes: refs to existing files with the same name, best first. */
  suggestions?: string[];
  /** A finding that stands for several refs (an alias folder not cloned): each of them. */
  refs?: GroupedRef[];
}

/** One ref of a grouped finding. */
export interface GroupedRef {
  file: string;
  line: number | null;
  ref: string;
}
