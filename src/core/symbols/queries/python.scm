; Python declarations (docs/symbols.md#languages). Started from tree-sitter-python's tags.scm,
; which tags classes and functions only; refcat adds module-level variables and class attributes.
; Decorators and the comment directly above belong to the declaration (the walker reads them).
; Captures: @definition.<kind> on the declaration, @name on its name.

(class_definition name: (identifier) @name) @definition.class
(function_definition name: (identifier) @name) @definition.function
(module (expression_statement (assignment left: (identifier) @name)) @definition.variable)
(class_definition body: (block (expression_statement (assignment left: (identifier) @name)) @definition.field))
