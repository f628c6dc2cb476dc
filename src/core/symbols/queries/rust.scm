; Rust declarations (docs/symbols.md#languages). Started from tree-sitter-rust's tags.scm
; (functions, structs, enums, traits, modules, macros); refcat adds fields, variants, constants,
; statics and type aliases. An `impl` block contributes its items to the type it implements
; (`Store.save`). Attributes and doc comments directly above belong to the item.
; Captures: @definition.<kind> on the declaration, @name on its name.

(struct_item name: (type_identifier) @name) @definition.struct
(union_item name: (type_identifier) @name) @definition.struct
(enum_item name: (type_identifier) @name) @definition.enum
(trait_item name: (type_identifier) @name) @definition.trait
(type_item name: (type_identifier) @name) @definition.type
(mod_item name: (identifier) @name) @definition.module
(impl_item type: [(type_identifier) @name (generic_type type: (type_identifier) @name) (scoped_type_identifier name: (type_identifier) @name)]) @definition.extension
(function_item name: (identifier) @name) @definition.function
(function_signature_item name: (identifier) @name) @definition.function
(macro_definition name: (identifier) @name) @definition.function
(field_declaration name: (field_identifier) @name) @definition.field
(enum_variant name: (identifier) @name) @definition.enum_case
(const_item name: (identifier) @name) @definition.constant
(static_item name: (identifier) @name) @definition.variable
