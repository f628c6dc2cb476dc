; C++ declarations (docs/symbols.md#languages). Started from tree-sitter-cpp's tags.scm (classes,
; structs, functions, methods); refcat adds namespaces, enums and enumerators, fields, aliases and
; file-scope variables. A method defined outside its class (`bool Store::load()`) belongs to the
; class (captured as @receiver). Captures: @definition.<kind> on the declaration, @name on its name.
;
; A prototype or a variable is declared wherever a `declaration` is: at file scope, in a
; namespace, a template, a header's include guard or `#ifdef`, an `extern "C"` block. In a function
; or lambda body it is a local, even one that reads as a prototype (`std::string s(name);`:
; @definition.prototype is a function unless it is in a body), which the shared walker drops. The
; patterns do not list the places: each parent named costs tree-sitter's analysis of the query
; 50-120 ms more. A wrapped declarator (`*f`, `&f`, `a[4]`, `x = 1`) is any node (`_`) around the
; name: one such pattern costs the analysis less than one per wrapper. The prototype patterns come
; first: a prototype's declarator also has a name under `declarator:`.

(namespace_definition name: [(namespace_identifier) (nested_namespace_specifier)] @name) @definition.module
(class_specifier name: (type_identifier) @name body: (_)) @definition.class
(struct_specifier name: (type_identifier) @name body: (_)) @definition.struct
(union_specifier name: (type_identifier) @name body: (_)) @definition.struct
(enum_specifier name: (type_identifier) @name body: (_)) @definition.enum
(enumerator name: (identifier) @name) @definition.enum_case
(type_definition declarator: (type_identifier) @name) @definition.type
(alias_declaration name: (type_identifier) @name) @definition.type

(function_definition declarator: (function_declarator declarator: (qualified_identifier scope: (namespace_identifier) @receiver name: (identifier) @name))) @definition.method
(function_definition declarator: (_ (function_declarator declarator: (qualified_identifier scope: (namespace_identifier) @receiver name: (identifier) @name)))) @definition.method
(function_definition declarator: (function_declarator declarator: [(identifier) (field_identifier) (destructor_name) (operator_name)] @name)) @definition.function
(field_declaration declarator: (function_declarator declarator: [(field_identifier) (destructor_name) (operator_name)] @name)) @definition.method
(field_declaration declarator: (_ (function_declarator declarator: [(field_identifier) (operator_name)] @name))) @definition.method
(field_declaration_list (declaration declarator: (function_declarator declarator: [(identifier) (field_identifier) (destructor_name)] @name)) @definition.method)
(field_declaration declarator: (field_identifier) @name) @definition.field
(field_declaration declarator: (pointer_declarator declarator: (field_identifier) @name)) @definition.field
(field_declaration declarator: (array_declarator declarator: (field_identifier) @name)) @definition.field
(preproc_def name: (identifier) @name) @definition.constant
(preproc_function_def name: (identifier) @name) @definition.function
(function_definition declarator: (_ (function_declarator declarator: [(identifier) (field_identifier)] @name))) @definition.function

; A function pointer type or field, its name inside `(*name)` (a variable of one is not listed:
; each of these patterns costs the query's analysis about 10 ms in C++).
(type_definition declarator: (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (type_identifier) @name)))) @definition.type
(field_declaration declarator: (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (field_identifier) @name)))) @definition.field
(declaration declarator: (function_declarator declarator: (identifier) @name)) @definition.prototype
(declaration declarator: (_ (function_declarator declarator: (identifier) @name))) @definition.prototype
(declaration declarator: (identifier) @name) @definition.variable
(declaration declarator: (_ declarator: (identifier) @name)) @definition.variable
(declaration declarator: (init_declarator declarator: (_ declarator: (identifier) @name))) @definition.variable

; A lambda's body: its variables are locals, not declarations.
(lambda_expression) @definition.locals

; A block (a function's body, or code a macro wraps): its variables and prototypes are locals.
(compound_statement) @definition.locals
; A friend is not a member of the class that names it, nor declared there: what it holds is local.
(friend_declaration) @definition.locals
