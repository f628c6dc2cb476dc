; Ruby declarations (docs/symbols.md#languages). Started from tree-sitter-ruby's tags.scm
; (classes, modules, methods, singleton methods); refcat adds constants assigned in a class,
; module or file. Captures: @definition.<kind> on the declaration, @name on its name.

(class name: [(constant) (scope_resolution)] @name) @definition.class
(module name: [(constant) (scope_resolution)] @name) @definition.module
(method name: (_) @name) @definition.method
(singleton_method name: (_) @name) @definition.method
(assignment left: (constant) @name) @definition.constant
