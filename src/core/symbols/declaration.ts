/** A file's declarations as refs by name see them (docs/symbols.md#the-declaration-table). */

export type SymbolKind =
  | 'function'
  | 'method'
  | 'class'
  | 'struct'
  | 'enum'
  | 'interface'
  | 'protocol'
  | 'trait'
  | 'object'
  | 'type'
  | 'module'
  | 'constant'
  | 'variable'
  | 'property'
  | 'field'
  | 'enum_case'
  | 'extension';

/**
 * One declaration. Lines are 1-based and inclusive. Declarations are listed in file order (by
 * their first line, then outermost first), and `index` is the position in that list.
 */
export interface Declaration {
  index: number;
  /** Dotted names from the outermost declaration: `Store.save`. An extension's members sit under the type it extends. */
  path: string;
  name: string;
  kind: SymbolKind;
  /** First line of the selection: the doc comment, attributes or decorators directly above (no blank line between), else `nameLine`'s declaration start. */
  startLine: number;
  /** The line the declaration itself begins on (its keyword or first modifier). */
  declLine: number;
  /** The line of its name. */
  nameLine: number;
  endLine: number;
  /**
   * The line its body begins on (`{` in brace languages, the first statement of an indented block
   * in Python), for an outline's signature; null when it has no body (a field, a prototype).
   */
  bodyStart: number | null;
  /** `index` of the enclosing declaration, or null at the top. */
  parent: number | null;
}

/** Kinds whose members are methods and properties, not functions and variables. */
export const TYPE_KINDS: ReadonlySet<SymbolKind> = new Set([
  'class',
  'struct',
  'enum',
  'interface',
  'protocol',
  'trait',
  'object',
  'extension',
]);

export const FUNCTION_KINDS: ReadonlySet<SymbolKind> = new Set(['function', 'method']);
