"""From a ruleset folder to a `Ruleset`, as a pipeline of stages (`stages.py`): read the manifest,
read the content, build the board, parse the rules, check the names, compile. Each stage is a
function of the previous stage's result and can be run alone (an editor runs the first ones).
`new_variant.py` writes the folder of a new variant of a game.

May import: `language`, `engine`, `content`, `safety`, `diagnostics`.
"""
