"""The language server (`ludolex lsp`): a ruleset as an editor project, the index of its names, and
the answers to hover, completion, definition, references and rename."""
