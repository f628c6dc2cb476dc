; C declarations (docs/symbols.md#languages). Started from tree-sitter-c's tags.scm (functions,
; structs, unions, enums, typedefs, macros); refcat adds fields, enumerators and file-scope
; variables. A prototype and its definition in one file are two declarations (`~1`, `~2`).
; Captures: @definition.<kind> on the declaration, @name on its name.
;
; A prototype or a variable is declared wherever a `declaration` is: at file scope, in a header's
; include guard or `#ifdef`, in an `extern "C"` block. In a function body it is a local, even one
; that reads as a prototype (@definition.prototype: a function, unless it is in a body), which the
; shared walker drops. The patterns do not list the places: each parent named costs tree-sitter's
; analysis of the query 10-40 ms more. A wrapped declarator (`*f`, `a[4]`, `x = 1`) is any
; node (`_`) around the name: one such pattern costs the analysis less than one per wrapper. The
; prototype patterns come first: a prototype's declarator also has a name under `declarator:`.

(function_definition declarator: (function_declarator declarator: (identifier) @name)) @definition.function
(function_definition declarator: (pointer_declarator declarator: (function_declarator declarator: (identifier) @name))) @definition.function
(function_definition declarator: (pointer_declarator declarator: (pointer_declarator declarator: (function_declarator declarator: (identifier) @name)))) @definition.function
(struct_specifier name: (type_identifier) @name body: (_)) @definition.struct
(union_specifier name: (type_identifier) @name body: (_)) @definition.struct
(enum_specifier name: (type_identifier) @name body: (_)) @definition.enum
(type_definition declarator: (type_identifier) @name) @definition.type
(preproc_def name: (identifier) @name) @definition.constant
(preproc_function_def name: (identifier) @name) @definition.function
(field_declaration declarator: (field_identifier) @name) @definition.field
(field_declaration declarator: (pointer_declarator declarator: (field_identifier) @name)) @definition.field
(field_declaration declarator: (array_declarator declarator: (field_identifier) @name)) @definition.field
(enumerator name: (identifier) @name) @definition.enum_case
; A function pointer: a variable, a type or a field, its name inside `(*name)`.
(declaration declarator: (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (identifier) @name)))) @definition.variable
(declaration declarator: (init_declarator declarator: (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (identifier) @name))))) @definition.variable
(type_definition declarator: (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (type_identifier) @name)))) @definition.type
(field_declaration declarator: (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (field_identifier) @name)))) @definition.field
(declaration declarator: (function_declarator declarator: (identifier) @name)) @definition.prototype
(declaration declarator: (_ (function_declarator declarator: (identifier) @name))) @definition.prototype
(declaration declarator: (pointer_declarator declarator: (pointer_declarator declarator: (function_declarator declarator: (identifier) @name)))) @definition.prototype
(declaration declarator: (identifier) @name) @definition.variable
(declaration declarator: (_ declarator: (identifier) @name)) @definition.variable
(declaration declarator: (init_declarator declarator: (_ declarator: (identifier) @name))) @definition.variable

; A block (a function's body, or code a macro such as a test framework's `TEST(a, b) { … }` wraps):
; its variables and prototypes are locals, not declarations.
(compound_statement) @definition.locals
