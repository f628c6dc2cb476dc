import type { SymbolKind } from '../symbols/declaration.js';

/** One completion, as complete-ref.ts (paths, lines) and symbol-refs.ts (symbol paths) make it. */
export interface CompletionEntry {
  label: string;
  kind: 'file' | 'folder' | 'lines' | 'symbol';
  /** For a symbol path (symbol-refs.ts): what it declares. */
  symbolKind?: SymbolKind;
  detail?: string;
  /** Replaces the columns [from, to) of the line. */
  newText: string;
  from: number;
  to: number;
}

export interface Completions {
  entries: CompletionEntry[];
  /** More entries matched than were sent: the client asks again as the user types on. */
  incomplete: boolean;
}
