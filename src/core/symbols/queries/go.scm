; Go declarations (docs/symbols.md#languages). Started from tree-sitter-go's tags.scm (functions,
; methods, types); refcat adds struct fields, interface methods, constants and variables. A
; method's path starts with its receiver's type (`Store.Save`), captured as @receiver. In a
; grouped `const ( … )`, `var ( … )` or `type ( … )` each spec is its own declaration.
; Captures: @definition.<kind> on the declaration, @name on its name.

(function_declaration name: (identifier) @name) @definition.function
(method_declaration
  receiver: (parameter_list (parameter_declaration type: [(type_identifier) @receiver (pointer_type (type_identifier) @receiver) (generic_type type: (type_identifier) @receiver) (pointer_type (generic_type type: (type_identifier) @receiver))]))
  name: (field_identifier) @name) @definition.method
(type_declaration (type_spec name: (type_identifier) @name type: (struct_type)) @definition.struct)
(type_declaration (type_spec name: (type_identifier) @name type: (interface_type)) @definition.interface)
(type_declaration (type_spec name: (type_identifier) @name) @definition.type)
(type_declaration (type_alias name: (type_identifier) @name) @definition.type)
(field_declaration name: (field_identifier) @name) @definition.field
(method_spec name: (field_identifier) @name) @definition.method
(source_file (const_declaration (const_spec name: (identifier) @name) @definition.constant))
(source_file (var_declaration (var_spec name: (identifier) @name) @definition.variable))
