; C# declarations (docs/symbols.md#languages). Started from tree-sitter-c-sharp's tags.scm
; (classes, interfaces, methods, namespaces); refcat adds structs, records, enums and their
; members, properties, fields, constructors, delegates. Members of several `partial` declarations
; of a class all sit under its name. Attributes are part of the declaration node.
; Captures: @definition.<kind> on the declaration, @name on its name.

(namespace_declaration name: (_) @name) @definition.module
(file_scoped_namespace_declaration name: (_) @name) @definition.module
(class_declaration name: (identifier) @name) @definition.class
(record_declaration name: (identifier) @name) @definition.class
(struct_declaration name: (identifier) @name) @definition.struct
(interface_declaration name: (identifier) @name) @definition.interface
(enum_declaration name: (identifier) @name) @definition.enum
(enum_member_declaration name: (identifier) @name) @definition.enum_case
(delegate_declaration name: (identifier) @name) @definition.type
(method_declaration name: (identifier) @name) @definition.method
(constructor_declaration name: (identifier) @name) @definition.method
(destructor_declaration name: (identifier) @name) @definition.method
(property_declaration name: (identifier) @name) @definition.property
(event_declaration name: (identifier) @name) @definition.property
(field_declaration (variable_declaration (variable_declarator (identifier) @name))) @definition.field
