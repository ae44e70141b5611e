"""`python -m interpreter`: the `ludolex` command."""
from interpreter.interfaces.cli import main

main()
