import type { Node } from 'web-tree-sitter';

/**
 * An independent reading of declarations, for the differential test (symbols.differential.ts):
 * a plain recursive walk over the parse tree with, per language, the node types that declare
 * something and where their names are. It shares nothing with refcat's definitions queries or
 * its walker, and follows what docs/symbols.md promises: functions, methods, types, properties,
 * fields and enum cases nested by containment, members of an extension under its type, a Go
 * method under its receiver's type, top-level variables and constants, no locals of any function
 * body (named or not).
 */

export interface Found {
  path: string;
  kind: string;
  nameLine: number;
  endLine: number;
  accessor?: boolean;
}

interface Scope {
  /** Dotted path of the declaration around, or '' at the top. */
  path: string;
  /** 'type' (members are methods/properties), 'function' (locals are not declarations), 'top'. */
  role: 'top' | 'type' | 'function';
}

/** What one node declares: each name with its kind; the scope its children are in. */
type Rule = (node: Node, scope: Scope) => { names: { name: string; nameNode: Node; kind: string; endNode?: Node; accessor?: boolean }[]; inner?: Scope; prefix?: string } | null;

const field = (n: Node, f: string) => n.childForFieldName(f);
const endLine = (n: Node) => (n.endPosition.column === 0 && n.endPosition.row > n.startPosition.row ? n.endPosition.row : n.endPosition.row + 1);
const hasToken = (n: Node, t: string) => n.children.some((c) => c !== null && !c.isNamed && c.type === t);
const token = (n: Node, t: string) => n.children.find((c) => c !== null && !c.isNamed && c.type === t) ?? n;
const member = (scope: Scope, fn: string, inType: string) => (scope.role === 'type' ? inType : fn);
const SYMBOL_NAME = /^[\p{L}\p{N}_$]+[!?]?$/u;
const LOCAL_KINDS = new Set(['variable', 'constant', 'field', 'property']);
const FUNCTION_SCOPES = new Set(['type_arguments', 'arrow_function', 'function_expression', 'function', 'generator_function', 'lambda', 'lambda_literal', 'func_literal', 'computed_property', 'computed_getter', 'computed_setter', 'willset_didset_block']);

function one(name: Node | null, kind: string, node: Node, inner?: Scope['role'], scope?: Scope) {
  if (!name) return null;
  const path = scope ? join(scope.path, name.text) : name.text;
  return { names: [{ name: name.text, nameNode: name, kind, endNode: node }], inner: inner ? { path, role: inner } : undefined };
}
const join = (a: string, b: string) => (a ? `${a}.${b}` : b);

const PYTHON: Record<string, Rule> = {
  class_definition: (n, s) => one(field(n, 'name'), 'class', n, 'type', s),
  function_definition: (n, s) => one(field(n, 'name'), member(s, 'function', 'method'), n, 'function', s),
  expression_statement: (n, s) => {
    const parent = n.parent?.type;
    const a = n.namedChild(0);
    if (a?.type !== 'assignment' || field(a, 'left')?.type !== 'identifier') return null;
    if (parent === 'module') return one(field(a, 'left'), 'variable', n);
    if (parent === 'block' && n.parent?.parent?.type === 'class_definition') return one(field(a, 'left'), 'field', n);
    return null;
  },
};

function goReceiver(n: Node): string | null {
  let t = field(n, 'receiver')?.namedChildren.find((c) => c?.type === 'parameter_declaration')?.childForFieldName('type') ?? null;
  while (t && t.type !== 'type_identifier') t = t.type === 'pointer_type' ? t.namedChild(0) : t.type === 'generic_type' ? field(t, 'type') : null;
  return t?.text ?? null;
}

const GO: Record<string, Rule> = {
  function_declaration: (n, s) => one(field(n, 'name'), 'function', n, 'function', s),
  method_declaration: (n) => {
    const recv = goReceiver(n);
    const name = field(n, 'name');
    if (!name || !recv) return null;
    return { names: [{ name: name.text, nameNode: name, kind: 'method', endNode: n }], inner: { path: `${recv}.${name.text}`, role: 'function' }, prefix: recv };
  },
  type_spec: (n) => {
    const t = field(n, 'type')?.type;
    const kind = t === 'struct_type' ? 'struct' : t === 'interface_type' ? 'interface' : 'type';
    return one(field(n, 'name'), kind, n, 'type');
  },
  type_alias: (n) => one(field(n, 'name'), 'type', n),
  field_declaration: (n, s) => {
    const names = n.childrenForFieldName('name').flatMap((c) => (c ? [{ name: c.text, nameNode: c, kind: 'field', endNode: n }] : []));
    // The fields of an inline struct type are listed under the field it types.
    return { names, inner: { path: names[0] ? join(s.path, names[0].name) : s.path, role: 'type' as const } };
  },
  method_spec: (n) => one(field(n, 'name'), 'method', n),
  method_elem: (n) => one(field(n, 'name'), 'method', n),
  const_spec: (n, s) => (s.role === 'top' && n.parent?.parent?.type === 'source_file' ? { names: n.childrenForFieldName('name').flatMap((c) => (c ? [{ name: c.text, nameNode: c, kind: 'constant', endNode: n }] : [])) } : null),
  var_spec: (n, s) => (s.role === 'top' && n.parent?.parent?.type === 'source_file' ? { names: n.childrenForFieldName('name').flatMap((c) => (c ? [{ name: c.text, nameNode: c, kind: 'variable', endNode: n }] : [])) } : null),
};

function tsDeclarators(n: Node, s: Scope): ReturnType<Rule> {
  // In a function body only a function held in a local is a declaration (`const f = () => …`).
  const names = [];
  const isConst = hasToken(n, 'const');
  for (const d of n.namedChildren) {
    if (d?.type !== 'variable_declarator') continue;
    const name = field(d, 'name');
    if (name?.type !== 'identifier') continue;
    const value = field(d, 'value')?.type;
    const fn = value === 'arrow_function' || value === 'function_expression' || value === 'function' || value === 'generator_function';
    if (s.role === 'function' && !fn) continue;
    names.push({ name: name.text, nameNode: name, kind: fn ? member(s, 'function', 'method') : isConst ? 'constant' : 'variable', endNode: n });
  }
  return { names };
}

const TYPESCRIPT: Record<string, Rule> = {
  function_declaration: (n, s) => one(field(n, 'name'), member(s, 'function', 'method'), n, 'function', s),
  generator_function_declaration: (n, s) => one(field(n, 'name'), member(s, 'function', 'method'), n, 'function', s),
  function_signature: (n, s) => one(field(n, 'name'), member(s, 'function', 'method'), n, 'function', s),
  class_declaration: (n, s) => one(field(n, 'name'), 'class', n, 'type', s),
  abstract_class_declaration: (n, s) => one(field(n, 'name'), 'class', n, 'type', s),
  interface_declaration: (n, s) => one(field(n, 'name'), 'interface', n, 'type', s),
  enum_declaration: (n, s) => one(field(n, 'name'), 'enum', n, 'type', s),
  type_alias_declaration: (n, s) => one(field(n, 'name'), 'type', n, 'type', s),
  internal_module: (n, s) => one(field(n, 'name'), 'module', n, 'top', s),
  module: (n, s) => one(field(n, 'name'), 'module', n, 'top', s),
  method_definition: (n, s) => {
    const accessor = hasToken(n, 'get') || hasToken(n, 'set');
    // A method of an object literal that no declaration holds (an object passed to a call) is a function.
    const got = one(field(n, 'name'), accessor ? 'property' : s.role !== 'type' && s.path === '' ? 'function' : 'method', n, 'function', s);
    if (got && accessor) got.names[0]!.accessor = true;
    return got;
  },
  method_signature: (n, s) => one(field(n, 'name'), 'method', n, 'function', s),
  abstract_method_signature: (n, s) => one(field(n, 'name'), 'method', n, 'function', s),
  // The members of an inline object type are listed under the field or property it types.
  public_field_definition: (n, s) => one(field(n, 'name'), 'field', n, 'type', s),
  property_signature: (n, s) => one(field(n, 'name'), 'property', n, 'type', s),
  property_identifier: (n) => (n.parent?.type === 'enum_body' ? one(n, 'enum_case', n) : null),
  enum_assignment: (n) => one(field(n, 'name'), 'enum_case', n),
  lexical_declaration: tsDeclarators,
  variable_declaration: tsDeclarators,
};

function swiftKeyword(n: Node): string | null {
  for (const k of ['class', 'actor', 'struct', 'enum', 'extension']) if (hasToken(n, k)) return k;
  return null;
}

const SWIFT: Record<string, Rule> = {
  class_declaration: (n, s) => {
    const k = swiftKeyword(n);
    const name = field(n, 'name');
    if (!k || !name) return null;
    if (k === 'extension') {
      // The members of `extension Foo` sit under Foo, wherever the extension is.
      const id = name.type === 'user_type' ? name.namedChildren.filter((c) => c?.type === 'type_identifier').at(-1) ?? null : name;
      if (!id) return null;
      return { names: [{ name: id.text, nameNode: id, kind: 'extension', endNode: n }], inner: { path: join(s.path, id.text), role: 'type' } };
    }
    return one(name, k === 'actor' ? 'class' : k, n, 'type', s);
  },
  protocol_declaration: (n, s) => one(field(n, 'name'), 'protocol', n, 'type', s),
  typealias_declaration: (n, s) => one(field(n, 'name'), 'type', n, undefined, s),
  function_declaration: (n, s) => one(field(n, 'name'), member(s, 'function', 'method'), n, 'function', s),
  protocol_function_declaration: (n, s) => one(field(n, 'name'), 'method', n, 'function', s),
  init_declaration: (n, s) => ({ names: [{ name: 'init', nameNode: token(n, 'init'), kind: member(s, 'function', 'method'), endNode: n }], inner: { path: join(s.path, 'init'), role: 'function' } }),
  deinit_declaration: (n, s) => ({ names: [{ name: 'deinit', nameNode: token(n, 'deinit'), kind: member(s, 'function', 'method'), endNode: n }], inner: { path: join(s.path, 'deinit'), role: 'function' } }),
  subscript_declaration: (n, s) => ({ names: [{ name: 'subscript', nameNode: token(n, 'subscript'), kind: member(s, 'function', 'method'), endNode: n }], inner: { path: join(s.path, 'subscript'), role: 'function' } }),
  property_declaration: (n, s) => {
    if (s.role === 'function') return null;
    const names = n.childrenForFieldName('name').flatMap((p) => {
      const id = p?.childForFieldName('bound_identifier');
      return id ? [{ name: id.text, nameNode: id, kind: member(s, 'variable', 'property'), endNode: n }] : [];
    });
    // A computed property's body is a function body: its locals are not declarations; a function
    // declared in it is the property's.
    return { names, inner: { path: names[0] ? join(s.path, names[0].name) : s.path, role: 'function' } };
  },
  protocol_property_declaration: (n) => {
    const id = field(n, 'name')?.childForFieldName('bound_identifier') ?? null;
    return one(id, 'property', n, 'function');
  },
  enum_entry: (n) => ({ names: n.childrenForFieldName('name').flatMap((c) => (c ? [{ name: c.text, nameNode: c, kind: 'enum_case', endNode: n }] : [])) }),
};

export const INDEPENDENT_RULES: Record<string, Record<string, Rule>> = {
  python: PYTHON,
  go: GO,
  typescript: TYPESCRIPT,
  tsx: TYPESCRIPT,
  swift: SWIFT,
};

/** Every declaration under `root`, by the rules of `language` (a key of INDEPENDENT_RULES). */
export function independentWalk(root: Node, language: string): Found[] {
  const rules = INDEPENDENT_RULES[language]!;
  const out: Found[] = [];
  const visit = (node: Node, scope: Scope): void => {
    const rule = node.isNamed ? rules[node.type] : undefined;
    const got = rule ? rule(node, scope) : null;
    let inner = scope;
    if (got) {
      const prefix = got.prefix ?? scope.path;
      for (const d of got.names) {
        // A local of a function body (named or not) is not a declaration; a nested function or type is.
        if (scope.role === 'function' && LOCAL_KINDS.has(d.kind)) continue;
        d.name = d.name.replace(/^`(.+)`$/, '$1');
        // A name a symbol path cannot say (Swift's `static func ==`) is not listed.
        if (!SYMBOL_NAME.test(d.name)) continue;
        const path = join(prefix, d.name);
        const last = out[out.length - 1];
        // A getter and a setter of one name, next to each other, are one property.
        if (d.accessor && last?.accessor && last.path === path) {
          last.endLine = Math.max(last.endLine, endLine(d.endNode ?? node));
          continue;
        }
        out.push({ path: join(prefix, d.name), kind: d.kind, nameLine: d.nameNode.startPosition.row + 1, endLine: endLine(d.endNode ?? node), ...(d.accessor ? { accessor: true } : {}) });
      }
      // What a skipped local holds is local too.
      if (scope.role === 'function' && got.names.every((d) => LOCAL_KINDS.has(d.kind))) inner = scope;
      else if (got.inner) inner = got.inner;
      else if (got.names[0]) inner = { path: join(prefix, got.names[0].name), role: 'function' };
    } else if (FUNCTION_SCOPES.has(node.type)) {
      inner = { path: scope.path, role: 'function' };
    }
    for (const child of node.namedChildren) if (child) visit(child, inner);
  };
  visit(root, { path: '', role: 'top' });
  return out;
}
