; Kotlin declarations (docs/symbols.md#languages). tree-sitter-kotlin ships no tags.scm; written
; for its node types. A companion object is a scope: its members belong to the class around it.
; Captures: @definition.<kind> on the declaration, @name on its name; @definition.scope has none.

(class_declaration "interface" (type_identifier) @name) @definition.interface
(class_declaration "enum" (type_identifier) @name) @definition.enum
(class_declaration (type_identifier) @name) @definition.class
(object_declaration (type_identifier) @name) @definition.object
(companion_object) @definition.scope
(type_alias (type_identifier) @name) @definition.type

(function_declaration (simple_identifier) @name) @definition.function
; A secondary constructor is `constructor` (`#Store.constructor`); an `init` block is `init`.
(secondary_constructor "constructor" @name) @definition.function
(anonymous_initializer "init" @name) @definition.function
; A property's getter and setter, which the grammar puts after it, are part of it (@extent).
(class_body (property_declaration (variable_declaration (simple_identifier) @name)) @definition.variable . [(getter) (setter)] @extent . [(getter) (setter)] @extent)
(class_body (property_declaration (variable_declaration (simple_identifier) @name)) @definition.variable . [(getter) (setter)] @extent)
(source_file (property_declaration (variable_declaration (simple_identifier) @name)) @definition.variable . [(getter) (setter)] @extent . [(getter) (setter)] @extent)
(source_file (property_declaration (variable_declaration (simple_identifier) @name)) @definition.variable . [(getter) (setter)] @extent)
(property_declaration (variable_declaration (simple_identifier) @name)) @definition.variable
(class_parameter (binding_pattern_kind) (simple_identifier) @name) @definition.property
(enum_entry (simple_identifier) @name) @definition.enum_case

; A getter's or setter's body, a lambda and an anonymous function: their variables are locals, not
; declarations.
(getter) @definition.locals
(setter) @definition.locals
(lambda_literal) @definition.locals
(anonymous_function) @definition.locals
