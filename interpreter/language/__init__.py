"""The rules language: the grammar, the parser (text to syntax tree), the syntax tree itself
(expressions, statements, declarations), the checker (names, types) and the compiler (syntax tree
to Python closures over the runtime), with the built-in functions rules can call.

May import: `engine`, `content`, `safety`, `diagnostics`.
"""
