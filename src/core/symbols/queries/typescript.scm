; TypeScript declarations, also read for TSX, whose grammar shares these nodes (docs/symbols.md#languages). Started from tree-sitter-typescript's
; tags.scm (functions, classes, methods, interfaces, modules); refcat adds enums and their members,
; type aliases, fields, accessors and top-level constants and variables. Captures:
; @definition.<kind> on the declaration, @name on its name. The first pattern that matches a node wins.

(function_declaration name: (identifier) @name) @definition.function
(generator_function_declaration name: (identifier) @name) @definition.function
(function_signature name: (identifier) @name) @definition.function
(class_declaration name: (type_identifier) @name) @definition.class
(abstract_class_declaration name: (type_identifier) @name) @definition.class
(interface_declaration name: (type_identifier) @name) @definition.interface
(enum_declaration name: (identifier) @name) @definition.enum
(type_alias_declaration name: (type_identifier) @name) @definition.type
(internal_module name: (_) @name) @definition.module
(module name: (_) @name) @definition.module

(method_definition "get" name: (_) @name) @definition.accessor
(method_definition "set" name: (_) @name) @definition.accessor
(method_definition name: (_) @name) @definition.method
(method_signature name: (_) @name) @definition.method
(abstract_method_signature name: (_) @name) @definition.method
(public_field_definition name: (_) @name) @definition.field
(property_signature name: (_) @name) @definition.property
(enum_body name: (property_identifier) @name @definition.enum_case)
(enum_body (enum_assignment name: (property_identifier) @name) @definition.enum_case)

(lexical_declaration (variable_declarator name: (identifier) @name value: [(arrow_function) (function_expression)])) @definition.function
(lexical_declaration "const" (variable_declarator name: (identifier) @name)) @definition.constant
(lexical_declaration "let" (variable_declarator name: (identifier) @name)) @definition.variable
(variable_declaration (variable_declarator name: (identifier) @name)) @definition.variable

; A function without a name (a callback): its variables are locals, not declarations.
(arrow_function) @definition.locals
(function_expression) @definition.locals
; A type argument's object type (`new Map<string, { a: number }>()`) declares nothing.
(type_arguments) @definition.locals
