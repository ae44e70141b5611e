"""`ludolex validate`: every problem of a ruleset folder, its scenario files and its bot files;
and the JSON Schemas of the YAML files, for editors.

May import: `scenarios`, `agents` and everything below them.
"""
