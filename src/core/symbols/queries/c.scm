; C declarations (docs/symbols.md#languages). Started from tree-sitter-c's tags.scm (functions,
; structs, unions, enums, typedefs, macros); refcat adds fields, enumerators and file-scope
; variables. A prototype and its definition in one file are two declarations (`~1`, `~2`).
; Captures: @definition.<kind> on the declaration, @name on its name.

(function_definition declarator: (function_declarator declarator: (identifier) @name)) @definition.function
(function_definition declarator: (pointer_declarator declarator: (function_declarator declarator: (identifier) @name))) @definition.function
(function_definition declarator: (pointer_declarator declarator: (pointer_declarator declarator: (function_declarator declarator: (identifier) @name)))) @definition.function
(translation_unit (declaration declarator: (function_declarator declarator: (identifier) @name)) @definition.function)
(translation_unit (declaration declarator: (pointer_declarator declarator: (function_declarator declarator: (identifier) @name))) @definition.function)
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
(translation_unit (declaration declarator: (init_declarator declarator: (identifier) @name)) @definition.variable)
(translation_unit (declaration declarator: (init_declarator declarator: (pointer_declarator declarator: (identifier) @name))) @definition.variable)
(translation_unit (declaration declarator: (identifier) @name) @definition.variable)
