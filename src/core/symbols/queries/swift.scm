; Swift declarations (docs/symbols.md#languages). Started from tree-sitter-swift's tags.scm, which
; tags locals; kinds below follow refcat's capture convention: @definition.<kind> on the
; declaration, @name on its name. An extension contributes its members to the type it names.

(class_declaration "class" name: (type_identifier) @name) @definition.class
(class_declaration "actor" name: (type_identifier) @name) @definition.class
(class_declaration "struct" name: (type_identifier) @name) @definition.struct
(class_declaration "enum" name: (type_identifier) @name) @definition.enum
; `extension Foundation.Date` extends Date; `extension Range<Int>` extends Range.
(class_declaration "extension" name: (user_type (type_identifier) @name .)) @definition.extension
(class_declaration "extension" name: (user_type (type_identifier) @name . (type_arguments) .)) @definition.extension
(protocol_declaration name: (type_identifier) @name) @definition.protocol
(typealias_declaration name: (type_identifier) @name) @definition.type

(function_declaration name: (simple_identifier) @name) @definition.function
(protocol_function_declaration name: (simple_identifier) @name) @definition.function
(init_declaration "init" @name) @definition.function
(deinit_declaration "deinit" @name) @definition.function
(subscript_declaration "subscript" @name) @definition.function

(property_declaration name: (pattern bound_identifier: (simple_identifier) @name)) @definition.variable
(protocol_property_declaration name: (pattern bound_identifier: (simple_identifier) @name)) @definition.property
(enum_entry name: (simple_identifier) @name) @definition.enum_case

; A closure, a computed property's accessors and a property's observers (willSet, didSet): their
; variables are locals, not declarations.
(lambda_literal) @definition.locals
(computed_property) @definition.locals
(willset_didset_block) @definition.locals
