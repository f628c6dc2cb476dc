; JavaScript declarations (docs/symbols.md#languages). Started from tree-sitter-javascript's
; tags.scm (functions, classes, methods, assigned functions); refcat adds fields, accessors,
; top-level constants and variables, and CommonJS exports: `module.exports.f = …` and
; `exports.f = …` declare `f`. Captures: @definition.<kind> on the declaration, @name on its name.

(function_declaration name: (identifier) @name) @definition.function
(generator_function_declaration name: (identifier) @name) @definition.function
(class_declaration name: (identifier) @name) @definition.class

(method_definition "get" name: (_) @name) @definition.accessor
(method_definition "set" name: (_) @name) @definition.accessor
(method_definition name: (_) @name) @definition.method
(field_definition property: (_) @name) @definition.field

(lexical_declaration (variable_declarator name: (identifier) @name value: [(arrow_function) (function_expression) (generator_function)])) @definition.function
(variable_declaration (variable_declarator name: (identifier) @name value: [(arrow_function) (function_expression) (generator_function)])) @definition.function
(lexical_declaration "const" (variable_declarator name: (identifier) @name)) @definition.constant
(lexical_declaration "let" (variable_declarator name: (identifier) @name)) @definition.variable
(variable_declaration (variable_declarator name: (identifier) @name)) @definition.variable

(expression_statement
  (assignment_expression
    left: (member_expression
      object: (member_expression object: (identifier) @_module property: (property_identifier) @_exports)
      property: (property_identifier) @name)
    right: [(arrow_function) (function_expression) (generator_function)])
  (#eq? @_module "module") (#eq? @_exports "exports")) @definition.function
(expression_statement
  (assignment_expression
    left: (member_expression object: (identifier) @_exports property: (property_identifier) @name)
    right: [(arrow_function) (function_expression) (generator_function)])
  (#eq? @_exports "exports")) @definition.function
(expression_statement
  (assignment_expression
    left: (member_expression
      object: (member_expression object: (identifier) @_module property: (property_identifier) @_exports)
      property: (property_identifier) @name))
  (#eq? @_module "module") (#eq? @_exports "exports")) @definition.variable
(expression_statement
  (assignment_expression
    left: (member_expression object: (identifier) @_exports property: (property_identifier) @name))
  (#eq? @_exports "exports")) @definition.variable

; A function without a name (a callback): its variables are locals, not declarations.
(arrow_function) @definition.locals
(function_expression) @definition.locals
