; C++ declarations (docs/symbols.md#languages). Started from tree-sitter-cpp's tags.scm (classes,
; structs, functions, methods); refcat adds namespaces, enums and enumerators, fields, aliases and
; file-scope variables. A method defined outside its class (`bool Store::load()`) belongs to the
; class (captured as @receiver). Captures: @definition.<kind> on the declaration, @name on its name.

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
(preproc_def name: (identifier) @name) @definition.constant
(preproc_function_def name: (identifier) @name) @definition.function
(translation_unit (declaration declarator: (function_declarator declarator: (identifier) @name)) @definition.function)
(translation_unit (declaration declarator: (init_declarator declarator: (identifier) @name)) @definition.variable)
(declaration_list (declaration declarator: (init_declarator declarator: (identifier) @name)) @definition.variable)
(function_definition declarator: (pointer_declarator declarator: (function_declarator declarator: [(identifier) (field_identifier)] @name))) @definition.function
(function_definition declarator: (reference_declarator (function_declarator declarator: [(identifier) (field_identifier)] @name))) @definition.function
