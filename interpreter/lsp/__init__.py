"""The language server (`ludolex lsp`): a ruleset as an editor project checked in steps that redo
only what an edit can change (`checking`), the index of its names, and the answers to hover,
completion, definition, references, rename, quick fixes, the outline and signature help."""
