"""The Lua backend: a ruleset's rules compiled to Lua and run by LuaJIT (through lupa), with each
running rule's place kept as data, so that a game can be copied at any decision (issue 33)."""
