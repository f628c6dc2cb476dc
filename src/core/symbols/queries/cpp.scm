; C++ declarations (docs/symbols.md#languages). Started from tree-sitter-cpp's tags.scm (classes,
; structs, functions, methods); refcat adds namespaces, enums and enumerators, fields, aliases and
; file-scope variables. A method defined outside its class (`bool Store::load()`) belongs to the
; class (captured as @receiver). Captures: @definition.<kind> on the declaration, @name on its name.
;
; A prototype or a variable is declared at file scope, in a namespace or an `extern "C"` block
; (`declaration_list`), by an `extern "C"` declaration, in a template, a header's include guard or
; `#ifdef`: one pattern per place, since a declaration in a function body is a local, even one
; that reads as a prototype (`std::string s(name);`).

(namespace_definition name: (namespace_identifier) @name) @definition.module
(class_specifier name: (type_identifier) @name body: (_)) @definition.class
(struct_specifier name: (type_identifier) @name body: (_)) @definition.struct
(union_specifier name: (type_identifier) @name body: (_)) @definition.struct
(enum_specifier name: (type_identifier) @name body: (_)) @definition.enum
(enumerator name: (identifier) @name) @definition.enum_case
(type_definition declarator: (type_identifier) @name) @definition.type
(alias_declaration name: (type_identifier) @name) @definition.type

(function_definition declarator: (function_declarator declarator: (qualified_identifier scope: (namespace_identifier) @receiver name: (identifier) @name))) @definition.method
(function_definition declarator: (function_declarator declarator: [(identifier) (field_identifier) (destructor_name) (operator_name)] @name)) @definition.function
(field_declaration declarator: (function_declarator declarator: [(field_identifier) (destructor_name) (operator_name)] @name)) @definition.method
(field_declaration_list (declaration declarator: (function_declarator declarator: [(identifier) (field_identifier) (destructor_name)] @name)) @definition.method)
(field_declaration declarator: (field_identifier) @name) @definition.field
(field_declaration declarator: (pointer_declarator declarator: (field_identifier) @name)) @definition.field
(field_declaration declarator: (array_declarator declarator: (field_identifier) @name)) @definition.field
(preproc_def name: (identifier) @name) @definition.constant
(preproc_function_def name: (identifier) @name) @definition.function
(translation_unit (declaration declarator: (function_declarator declarator: (identifier) @name)) @definition.function)
(declaration_list (declaration declarator: (function_declarator declarator: (identifier) @name)) @definition.function)
(template_declaration (declaration declarator: (function_declarator declarator: (identifier) @name)) @definition.function)
(preproc_if (declaration declarator: (function_declarator declarator: (identifier) @name)) @definition.function)
(preproc_ifdef (declaration declarator: (function_declarator declarator: (identifier) @name)) @definition.function)
(preproc_else (declaration declarator: (function_declarator declarator: (identifier) @name)) @definition.function)
(preproc_elif (declaration declarator: (function_declarator declarator: (identifier) @name)) @definition.function)
(preproc_elifdef (declaration declarator: (function_declarator declarator: (identifier) @name)) @definition.function)
(linkage_specification (declaration declarator: (function_declarator declarator: (identifier) @name)) @definition.function)
(translation_unit (declaration declarator: (pointer_declarator declarator: (function_declarator declarator: (identifier) @name))) @definition.function)
(declaration_list (declaration declarator: (pointer_declarator declarator: (function_declarator declarator: (identifier) @name))) @definition.function)
(template_declaration (declaration declarator: (pointer_declarator declarator: (function_declarator declarator: (identifier) @name))) @definition.function)
(preproc_if (declaration declarator: (pointer_declarator declarator: (function_declarator declarator: (identifier) @name))) @definition.function)
(preproc_ifdef (declaration declarator: (pointer_declarator declarator: (function_declarator declarator: (identifier) @name))) @definition.function)
(preproc_else (declaration declarator: (pointer_declarator declarator: (function_declarator declarator: (identifier) @name))) @definition.function)
(preproc_elif (declaration declarator: (pointer_declarator declarator: (function_declarator declarator: (identifier) @name))) @definition.function)
(preproc_elifdef (declaration declarator: (pointer_declarator declarator: (function_declarator declarator: (identifier) @name))) @definition.function)
(linkage_specification (declaration declarator: (pointer_declarator declarator: (function_declarator declarator: (identifier) @name))) @definition.function)
(translation_unit (declaration declarator: (reference_declarator (function_declarator declarator: (identifier) @name))) @definition.function)
(declaration_list (declaration declarator: (reference_declarator (function_declarator declarator: (identifier) @name))) @definition.function)
(template_declaration (declaration declarator: (reference_declarator (function_declarator declarator: (identifier) @name))) @definition.function)
(preproc_if (declaration declarator: (reference_declarator (function_declarator declarator: (identifier) @name))) @definition.function)
(preproc_ifdef (declaration declarator: (reference_declarator (function_declarator declarator: (identifier) @name))) @definition.function)
(preproc_else (declaration declarator: (reference_declarator (function_declarator declarator: (identifier) @name))) @definition.function)
(preproc_elif (declaration declarator: (reference_declarator (function_declarator declarator: (identifier) @name))) @definition.function)
(preproc_elifdef (declaration declarator: (reference_declarator (function_declarator declarator: (identifier) @name))) @definition.function)
(linkage_specification (declaration declarator: (reference_declarator (function_declarator declarator: (identifier) @name))) @definition.function)
(translation_unit (declaration declarator: (init_declarator declarator: (identifier) @name)) @definition.variable)
(declaration_list (declaration declarator: (init_declarator declarator: (identifier) @name)) @definition.variable)
(template_declaration (declaration declarator: (init_declarator declarator: (identifier) @name)) @definition.variable)
(preproc_if (declaration declarator: (init_declarator declarator: (identifier) @name)) @definition.variable)
(preproc_ifdef (declaration declarator: (init_declarator declarator: (identifier) @name)) @definition.variable)
(preproc_else (declaration declarator: (init_declarator declarator: (identifier) @name)) @definition.variable)
(preproc_elif (declaration declarator: (init_declarator declarator: (identifier) @name)) @definition.variable)
(preproc_elifdef (declaration declarator: (init_declarator declarator: (identifier) @name)) @definition.variable)
(linkage_specification (declaration declarator: (init_declarator declarator: (identifier) @name)) @definition.variable)
(translation_unit (declaration declarator: (init_declarator declarator: (pointer_declarator declarator: (identifier) @name))) @definition.variable)
(declaration_list (declaration declarator: (init_declarator declarator: (pointer_declarator declarator: (identifier) @name))) @definition.variable)
(template_declaration (declaration declarator: (init_declarator declarator: (pointer_declarator declarator: (identifier) @name))) @definition.variable)
(preproc_if (declaration declarator: (init_declarator declarator: (pointer_declarator declarator: (identifier) @name))) @definition.variable)
(preproc_ifdef (declaration declarator: (init_declarator declarator: (pointer_declarator declarator: (identifier) @name))) @definition.variable)
(preproc_else (declaration declarator: (init_declarator declarator: (pointer_declarator declarator: (identifier) @name))) @definition.variable)
(preproc_elif (declaration declarator: (init_declarator declarator: (pointer_declarator declarator: (identifier) @name))) @definition.variable)
(preproc_elifdef (declaration declarator: (init_declarator declarator: (pointer_declarator declarator: (identifier) @name))) @definition.variable)
(linkage_specification (declaration declarator: (init_declarator declarator: (pointer_declarator declarator: (identifier) @name))) @definition.variable)
(translation_unit (declaration declarator: (init_declarator declarator: (array_declarator declarator: (identifier) @name))) @definition.variable)
(declaration_list (declaration declarator: (init_declarator declarator: (array_declarator declarator: (identifier) @name))) @definition.variable)
(template_declaration (declaration declarator: (init_declarator declarator: (array_declarator declarator: (identifier) @name))) @definition.variable)
(preproc_if (declaration declarator: (init_declarator declarator: (array_declarator declarator: (identifier) @name))) @definition.variable)
(preproc_ifdef (declaration declarator: (init_declarator declarator: (array_declarator declarator: (identifier) @name))) @definition.variable)
(preproc_else (declaration declarator: (init_declarator declarator: (array_declarator declarator: (identifier) @name))) @definition.variable)
(preproc_elif (declaration declarator: (init_declarator declarator: (array_declarator declarator: (identifier) @name))) @definition.variable)
(preproc_elifdef (declaration declarator: (init_declarator declarator: (array_declarator declarator: (identifier) @name))) @definition.variable)
(linkage_specification (declaration declarator: (init_declarator declarator: (array_declarator declarator: (identifier) @name))) @definition.variable)
(translation_unit (declaration declarator: (identifier) @name) @definition.variable)
(declaration_list (declaration declarator: (identifier) @name) @definition.variable)
(template_declaration (declaration declarator: (identifier) @name) @definition.variable)
(preproc_if (declaration declarator: (identifier) @name) @definition.variable)
(preproc_ifdef (declaration declarator: (identifier) @name) @definition.variable)
(preproc_else (declaration declarator: (identifier) @name) @definition.variable)
(preproc_elif (declaration declarator: (identifier) @name) @definition.variable)
(preproc_elifdef (declaration declarator: (identifier) @name) @definition.variable)
(linkage_specification (declaration declarator: (identifier) @name) @definition.variable)
(translation_unit (declaration declarator: (pointer_declarator declarator: (identifier) @name)) @definition.variable)
(declaration_list (declaration declarator: (pointer_declarator declarator: (identifier) @name)) @definition.variable)
(template_declaration (declaration declarator: (pointer_declarator declarator: (identifier) @name)) @definition.variable)
(preproc_if (declaration declarator: (pointer_declarator declarator: (identifier) @name)) @definition.variable)
(preproc_ifdef (declaration declarator: (pointer_declarator declarator: (identifier) @name)) @definition.variable)
(preproc_else (declaration declarator: (pointer_declarator declarator: (identifier) @name)) @definition.variable)
(preproc_elif (declaration declarator: (pointer_declarator declarator: (identifier) @name)) @definition.variable)
(preproc_elifdef (declaration declarator: (pointer_declarator declarator: (identifier) @name)) @definition.variable)
(linkage_specification (declaration declarator: (pointer_declarator declarator: (identifier) @name)) @definition.variable)
(translation_unit (declaration declarator: (array_declarator declarator: (identifier) @name)) @definition.variable)
(declaration_list (declaration declarator: (array_declarator declarator: (identifier) @name)) @definition.variable)
(template_declaration (declaration declarator: (array_declarator declarator: (identifier) @name)) @definition.variable)
(preproc_if (declaration declarator: (array_declarator declarator: (identifier) @name)) @definition.variable)
(preproc_ifdef (declaration declarator: (array_declarator declarator: (identifier) @name)) @definition.variable)
(preproc_else (declaration declarator: (array_declarator declarator: (identifier) @name)) @definition.variable)
(preproc_elif (declaration declarator: (array_declarator declarator: (identifier) @name)) @definition.variable)
(preproc_elifdef (declaration declarator: (array_declarator declarator: (identifier) @name)) @definition.variable)
(linkage_specification (declaration declarator: (array_declarator declarator: (identifier) @name)) @definition.variable)
(function_definition declarator: (pointer_declarator declarator: (function_declarator declarator: [(identifier) (field_identifier)] @name))) @definition.function
(function_definition declarator: (reference_declarator (function_declarator declarator: [(identifier) (field_identifier)] @name))) @definition.function

; A lambda's body: its variables are locals, not declarations.
(lambda_expression) @definition.locals
