import type { DriftEntry } from './drift-types.js';

/**
 * What happened to a changed ref's lines, as the CLI and the editor say it (docs/drift.md#how-it-decides):
 * `1 of 23 lines edited, 3 lines deleted, 2 lines inserted inside the range`. Each part only when it
 * happened; a range git's diff left alone but that differs anyway (a rename with edits) keeps the
 * plain `N of M lines edited`.
 */
export function changedText(e: Pick<DriftEntry, 'editedLines' | 'insertedLines' | 'deletedLines' | 'oldLines'>): string {
  const parts: string[] = [];
  const replaced = e.editedLines - e.deletedLines;
  if (replaced > 0) parts.push(`${replaced} of ${e.oldLines} lines edited`);
  if (e.deletedLines > 0) parts.push(`${lines(e.deletedLines)} deleted`);
  if (e.insertedLines > 0) parts.push(`${lines(e.insertedLines)} inserted`);
  if (parts.length === 0) return `${e.editedLines} of ${e.oldLines} lines edited`;
  return replaced > 0 && parts.length === 1 ? parts[0]! : `${parts.join(', ')} inside the range`;
}

function lines(n: number): string {
  return `${n} line${n === 1 ? '' : 's'}`;
}
