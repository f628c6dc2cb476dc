; C declarations (docs/symbols.md#languages). Started from tree-sitter-c's tags.scm (functions,
; structs, unions, enums, typedefs, macros); refcat adds fields, enumerators and file-scope
; variables. A prototype and its definition in one file are two declarations (`~1`, `~2`).
; Captures: @definition.<kind> on the declaration, @name on its name.
;
; A prototype or a variable is declared at file scope, in a header's include guard or `#ifdef`,
; or by an `extern "C"` declaration or block (`declaration_list`): one pattern per place, since a
; declaration in a function body is a local, even one that reads as a prototype (one in an
; `#ifdef` inside a function body still reads as one).

(function_definition declarator: (function_declarator declarator: (identifier) @name)) @definition.function
(function_definition declarator: (pointer_declarator declarator: (function_declarator declarator: (identifier) @name))) @definition.function
(function_definition declarator: (pointer_declarator declarator: (pointer_declarator declarator: (function_declarator declarator: (identifier) @name)))) @definition.function
(translation_unit (declaration declarator: (function_declarator declarator: (identifier) @name)) @definition.function)
(declaration_list (declaration declarator: (function_declarator declarator: (identifier) @name)) @definition.function)
(preproc_if (declaration declarator: (function_declarator declarator: (identifier) @name)) @definition.function)
(preproc_ifdef (declaration declarator: (function_declarator declarator: (identifier) @name)) @definition.function)
(preproc_else (declaration declarator: (function_declarator declarator: (identifier) @name)) @definition.function)
(preproc_elif (declaration declarator: (function_declarator declarator: (identifier) @name)) @definition.function)
(preproc_elifdef (declaration declarator: (function_declarator declarator: (identifier) @name)) @definition.function)
(linkage_specification (declaration declarator: (function_declarator declarator: (identifier) @name)) @definition.function)
(translation_unit (declaration declarator: (pointer_declarator declarator: (function_declarator declarator: (identifier) @name))) @definition.function)
(declaration_list (declaration declarator: (pointer_declarator declarator: (function_declarator declarator: (identifier) @name))) @definition.function)
(preproc_if (declaration declarator: (pointer_declarator declarator: (function_declarator declarator: (identifier) @name))) @definition.function)
(preproc_ifdef (declaration declarator: (pointer_declarator declarator: (function_declarator declarator: (identifier) @name))) @definition.function)
(preproc_else (declaration declarator: (pointer_declarator declarator: (function_declarator declarator: (identifier) @name))) @definition.function)
(preproc_elif (declaration declarator: (pointer_declarator declarator: (function_declarator declarator: (identifier) @name))) @definition.function)
(preproc_elifdef (declaration declarator: (pointer_declarator declarator: (function_declarator declarator: (identifier) @name))) @definition.function)
(linkage_specification (declaration declarator: (pointer_declarator declarator: (function_declarator declarator: (identifier) @name))) @definition.function)
(translation_unit (declaration declarator: (pointer_declarator declarator: (pointer_declarator declarator: (function_declarator declarator: (identifier) @name)))) @definition.function)
(declaration_list (declaration declarator: (pointer_declarator declarator: (pointer_declarator declarator: (function_declarator declarator: (identifier) @name)))) @definition.function)
(preproc_if (declaration declarator: (pointer_declarator declarator: (pointer_declarator declarator: (function_declarator declarator: (identifier) @name)))) @definition.function)
(preproc_ifdef (declaration declarator: (pointer_declarator declarator: (pointer_declarator declarator: (function_declarator declarator: (identifier) @name)))) @definition.function)
(preproc_else (declaration declarator: (pointer_declarator declarator: (pointer_declarator declarator: (function_declarator declarator: (identifier) @name)))) @definition.function)
(preproc_elif (declaration declarator: (pointer_declarator declarator: (pointer_declarator declarator: (function_declarator declarator: (identifier) @name)))) @definition.function)
(preproc_elifdef (declaration declarator: (pointer_declarator declarator: (pointer_declarator declarator: (function_declarator declarator: (identifier) @name)))) @definition.function)
(linkage_specification (declaration declarator: (pointer_declarator declarator: (pointer_declarator declarator: (function_declarator declarator: (identifier) @name)))) @definition.function)
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
(declaration_list (declaration declarator: (init_declarator declarator: (identifier) @name)) @definition.variable)
(preproc_if (declaration declarator: (init_declarator declarator: (identifier) @name)) @definition.variable)
(preproc_ifdef (declaration declarator: (init_declarator declarator: (identifier) @name)) @definition.variable)
(preproc_else (declaration declarator: (init_declarator declarator: (identifier) @name)) @definition.variable)
(preproc_elif (declaration declarator: (init_declarator declarator: (identifier) @name)) @definition.variable)
(preproc_elifdef (declaration declarator: (init_declarator declarator: (identifier) @name)) @definition.variable)
(linkage_specification (declaration declarator: (init_declarator declarator: (identifier) @name)) @definition.variable)
(translation_unit (declaration declarator: (init_declarator declarator: (pointer_declarator declarator: (identifier) @name))) @definition.variable)
(declaration_list (declaration declarator: (init_declarator declarator: (pointer_declarator declarator: (identifier) @name))) @definition.variable)
(preproc_if (declaration declarator: (init_declarator declarator: (pointer_declarator declarator: (identifier) @name))) @definition.variable)
(preproc_ifdef (declaration declarator: (init_declarator declarator: (pointer_declarator declarator: (identifier) @name))) @definition.variable)
(preproc_else (declaration declarator: (init_declarator declarator: (pointer_declarator declarator: (identifier) @name))) @definition.variable)
(preproc_elif (declaration declarator: (init_declarator declarator: (pointer_declarator declarator: (identifier) @name))) @definition.variable)
(preproc_elifdef (declaration declarator: (init_declarator declarator: (pointer_declarator declarator: (identifier) @name))) @definition.variable)
(linkage_specification (declaration declarator: (init_declarator declarator: (pointer_declarator declarator: (identifier) @name))) @definition.variable)
(translation_unit (declaration declarator: (init_declarator declarator: (array_declarator declarator: (identifier) @name))) @definition.variable)
(declaration_list (declaration declarator: (init_declarator declarator: (array_declarator declarator: (identifier) @name))) @definition.variable)
(preproc_if (declaration declarator: (init_declarator declarator: (array_declarator declarator: (identifier) @name))) @definition.variable)
(preproc_ifdef (declaration declarator: (init_declarator declarator: (array_declarator declarator: (identifier) @name))) @definition.variable)
(preproc_else (declaration declarator: (init_declarator declarator: (array_declarator declarator: (identifier) @name))) @definition.variable)
(preproc_elif (declaration declarator: (init_declarator declarator: (array_declarator declarator: (identifier) @name))) @definition.variable)
(preproc_elifdef (declaration declarator: (init_declarator declarator: (array_declarator declarator: (identifier) @name))) @definition.variable)
(linkage_specification (declaration declarator: (init_declarator declarator: (array_declarator declarator: (identifier) @name))) @definition.variable)
(translation_unit (declaration declarator: (identifier) @name) @definition.variable)
(declaration_list (declaration declarator: (identifier) @name) @definition.variable)
(preproc_if (declaration declarator: (identifier) @name) @definition.variable)
(preproc_ifdef (declaration declarator: (identifier) @name) @definition.variable)
(preproc_else (declaration declarator: (identifier) @name) @definition.variable)
(preproc_elif (declaration declarator: (identifier) @name) @definition.variable)
(preproc_elifdef (declaration declarator: (identifier) @name) @definition.variable)
(linkage_specification (declaration declarator: (identifier) @name) @definition.variable)
(translation_unit (declaration declarator: (pointer_declarator declarator: (identifier) @name)) @definition.variable)
(declaration_list (declaration declarator: (pointer_declarator declarator: (identifier) @name)) @definition.variable)
(preproc_if (declaration declarator: (pointer_declarator declarator: (identifier) @name)) @definition.variable)
(preproc_ifdef (declaration declarator: (pointer_declarator declarator: (identifier) @name)) @definition.variable)
(preproc_else (declaration declarator: (pointer_declarator declarator: (identifier) @name)) @definition.variable)
(preproc_elif (declaration declarator: (pointer_declarator declarator: (identifier) @name)) @definition.variable)
(preproc_elifdef (declaration declarator: (pointer_declarator declarator: (identifier) @name)) @definition.variable)
(linkage_specification (declaration declarator: (pointer_declarator declarator: (identifier) @name)) @definition.variable)
(translation_unit (declaration declarator: (array_declarator declarator: (identifier) @name)) @definition.variable)
(declaration_list (declaration declarator: (array_declarator declarator: (identifier) @name)) @definition.variable)
(preproc_if (declaration declarator: (array_declarator declarator: (identifier) @name)) @definition.variable)
(preproc_ifdef (declaration declarator: (array_declarator declarator: (identifier) @name)) @definition.variable)
(preproc_else (declaration declarator: (array_declarator declarator: (identifier) @name)) @definition.variable)
(preproc_elif (declaration declarator: (array_declarator declarator: (identifier) @name)) @definition.variable)
(preproc_elifdef (declaration declarator: (array_declarator declarator: (identifier) @name)) @definition.variable)
(linkage_specification (declaration declarator: (array_declarator declarator: (identifier) @name)) @definition.variable)
