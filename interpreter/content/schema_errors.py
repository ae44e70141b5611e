"""Pydantic's validation errors told as diagnostics: at the key or value's line and column, in plain words."""
from __future__ import annotations

from pydantic import BaseModel, ValidationError

from interpreter.content.models import ContentFile
from interpreter.content.yaml_source import position_of
from interpreter.diagnostics.diagnostic import Diagnostic, Position
from interpreter.diagnostics.suggestions import did_you_mean


def schema_diagnostic(error: dict, document, file: str, model: type[BaseModel] | None = None) -> Diagnostic:
    is_key = bool(error["loc"]) and error["loc"][-1] == "[key]"
    location = _document_path(document, error["loc"])
    position = position_of(document, location, file)
    if error["type"] == "string_pattern_mismatch":
        name = location[-1] if is_key else error.get("input")
        return Diagnostic("LX205", f"`{name}` is not a name: use letters, digits and `_`, starting with a letter",
                          position if is_key else position_of(document, location, file, value=True),
                          hint=f"try `{_as_name(str(name))}`")
    where = ".".join(str(step) for step in location) or "the file"
    if error["type"] == "extra_forbidden":
        key = str(location[-1])
        known = _allowed_keys(location[:-1], model or ContentFile)
        return Diagnostic("LX203", f"unknown key `{key}`", position, hint=did_you_mean(key, known))
    if error["type"] == "missing":
        return Diagnostic("LX204", f"missing field `{location[-1]}` in {'.'.join(map(str, location[:-1])) or 'the file'}", position)
    return Diagnostic("LX205", f"{where}: {plain_words(error)}", position_of(document, location, file, value=True))


# What pydantic's error types mean, said without pydantic's words ("Input should be ...", "Value error, ").
PLAIN = {
    "int_parsing": "{input} is not a whole number", "int_type": "{input} is not a whole number",
    "int_from_float": "{input} is not a whole number", "float_parsing": "{input} is not a number",
    "float_type": "{input} is not a number", "bool_parsing": "write `true` or `false`, not {input}",
    "bool_type": "write `true` or `false`, not {input}", "string_type": "{input} is not a text",
    "list_type": "a list is wanted (`[a, b]`), not {input}", "dict_type": "keys and values are wanted (`key: value`), not {input}",
    "model_type": "keys and values are wanted (`key: value`), not {input}",
    "greater_than_equal": "{input} is less than {ge}, the least allowed", "greater_than": "{input} must be more than {gt}",
    "less_than_equal": "{input} is more than {le}, the most allowed", "less_than": "{input} must be less than {lt}",
    "literal_error": "{input} is not one of {expected}", "enum": "{input} is not one of {expected}",
    "too_short": "too few items (at least {min_length})", "too_long": "too many items (at most {max_length})",
    "string_too_short": "too short (at least {min_length} characters)",
    "string_too_long": "too long (at most {max_length} characters)",
}


def plain_words(error: dict) -> str:
    """pydantic's message for one error, in the words of a person reading their YAML."""
    if error["type"] in ("value_error", "assertion_error"):
        return str(error.get("ctx", {}).get("error", error["msg"])).removeprefix("Assertion failed, ")
    template = PLAIN.get(error["type"])
    if template is None:
        return error["msg"].replace("Input should be", "should be")
    shown = error.get("input")
    words = {"input": f"`{shown}`" if isinstance(shown, (str, int, float, bool)) else "this value", **error.get("ctx", {})}
    if "expected" in words:  # pydantic quotes the choices: 'a', 'b' or 'c'
        words["expected"] = str(words["expected"]).replace("'", "`")
    try:
        return template.format(**words)
    except (KeyError, IndexError):
        return error["msg"].replace("Input should be", "should be")


def schema_diagnostics(error: ValidationError, document, file: str, model: type[BaseModel]) -> list[Diagnostic]:
    """Every schema error of a file; a misspelled required key is one error (the unknown key, with
    its suggestion), not two."""
    if document is None or not isinstance(document, dict):
        what = "empty" if document is None else f"a {type(document).__name__}, not a mapping of keys"
        return [Diagnostic("LX205", f"the file is {what}", Position(file, 1, 1))]
    found, places = [], set()
    for e in error.errors():
        diagnostic = schema_diagnostic(e, document, file, model)
        place = (diagnostic.code, diagnostic.position)
        if place not in places:  # a value that fits no branch of a union: one error, the first branch's
            places.add(place)
            found.append(diagnostic)
    suggested = {d.hint for d in found if d.code == "LX203" and d.hint}
    return [d for d in found if not (d.code == "LX204" and f"did you mean `{d.message.split('`')[1]}`?" in suggested)]


def _as_name(text: str) -> str:
    import re

    name = re.sub(r"\W+", "_", text).strip("_") or "name"
    return name if not name[0].isdigit() else f"_{name}"


def _document_path(document, loc: tuple) -> tuple:
    """pydantic's location with the names of union branches it tried (`str`, `dict[str,str]`)
    left out: a step is kept when the document has it, or when it cannot be a branch's name."""
    node, kept = document, []
    for step in loc:
        present = (isinstance(node, dict) and step in node) or (isinstance(node, list) and isinstance(step, int) and step < len(node))
        if present:
            node = node[step]
            kept.append(step)
        elif not _is_union_branch(step):
            kept.append(step)
            node = None
    return tuple(kept)


def _is_union_branch(step) -> bool:
    """pydantic names the branch of a union it tried (`str`, `dict[str,str]`): not a YAML key."""
    return isinstance(step, str) and ("[" in step or step.startswith("constrained-")
                                      or step in ("str", "int", "bool", "float"))


def _allowed_keys(location: tuple, model: type[BaseModel]) -> list[str]:
    for step in location:
        if model is None:
            break
        field_info = model.model_fields.get(str(step))
        if field_info is None:
            continue  # a list index or a mapping key (a kind's name): the same model below
        annotation = field_info.annotation
        nested = [a for a in _inner_types(annotation) if isinstance(a, type) and issubclass(a, BaseModel)]
        model = nested[0] if nested else None
    return [f.alias or name for name, f in (model.model_fields.items() if model else [])]


def _inner_types(annotation) -> list:
    found, stack = [], [annotation]
    while stack:
        current = stack.pop()
        found.append(current)
        stack.extend(getattr(current, "__args__", ()))
    return found
