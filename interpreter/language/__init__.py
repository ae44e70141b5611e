"""The rules language: parsing to a typed AST, checking, and compiling to Python closures."""
