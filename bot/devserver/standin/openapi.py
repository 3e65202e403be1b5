"""Request bodies checked against Discord's own OpenAPI spec, as Discord's validation
refuses them: 400, code 50035 "Invalid Form Body", the errors nested along the body's
path (`{"components": {"0": {"label": {"_errors": [...]}}}}`).

The spec is `bot/devserver/spec/openapi.json`, vendored unmodified from
discord/discord-api-spec (see the README there). Discord takes more than its spec says
in two ways, and so does this: a snowflake may be an integer as well as a string of
digits, and an integer may be a string of digits (the spec's conventions say so).

Unions (`oneOf`, `anyOf`) of objects told apart by their `type` (components, interaction
callbacks) are checked against the one member of that type, so an error points into it
rather than at the union. The validator is jsonschema's for JSON Schema 2020-12, which
OpenAPI 3.1's schemas are; it is imported on first use, so the stand-in runs without it
while this check is off.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bot.devserver.standin.errors import DiscordHTTPError, FormErrors

SPEC_PATH = Path(__file__).resolve().parents[1] / "spec" / "openapi.json"
_BASE_URI = "https://discord.com/api/v10/openapi.json"
_DIGITS = re.compile(r"^-?[0-9]+$")


@functools.cache
def load_spec(path: Path = SPEC_PATH) -> dict[str, Any]:
    spec: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return spec


def _pointer(*parts: str) -> str:
    return "/".join(part.replace("~", "~0").replace("/", "~1") for part in parts)


@dataclass(frozen=True)
class SpecError:
    """One refusal: where in the body, Discord's code and message, and the spec's rule."""

    path: tuple[str | int, ...]
    code: str
    message: str
    rule: str


class SpecValidator:
    """The request-body schemas of one spec, a validator per route built on first use."""

    def __init__(self, spec: dict[str, Any] | None = None) -> None:
        self.spec = spec if spec is not None else load_spec()
        self._validators: dict[tuple[str, str], Any] = {}
        self._registry: Any = None

    def has_body(self, method: str, template: str) -> bool:
        """Whether the spec gives this route a JSON body."""
        operation = self.spec["paths"].get(template, {}).get(method.lower(), {})
        content = operation.get("requestBody", {}).get("content", {})
        return "application/json" in content

    def errors(self, method: str, template: str, body: Any) -> list[SpecError]:
        """What the spec refuses in `body`, sent to `template` (a path as the spec writes
        it); none for a route without a JSON body in the spec."""
        if not self.has_body(method, template):
            return []
        validator = self._validator(method, template)
        found = [_spec_error(error) for error in _leaves(validator.iter_errors(body))]
        return sorted(found, key=lambda e: [str(p) for p in e.path])

    def schema_errors(self, name: str, instance: Any) -> list[SpecError]:
        """What the spec's schema `name` (components/schemas) refuses in `instance`: an
        answer of the stand-in checked against what Discord answers."""
        validator = self._validators.get(("schema", name))
        if validator is None:
            pointer = _pointer("", "components", "schemas", name)
            validator = _validator_class(self)(
                {"$ref": f"{_BASE_URI}#{pointer}"}, registry=self._registry_of_refs()
            )
            self._validators[("schema", name)] = validator
        return [_spec_error(error) for error in _leaves(validator.iter_errors(instance))]

    def check(self, method: str, template: str, body: Any) -> None:
        """Raise Discord's 400 Invalid Form Body if the spec refuses `body`."""
        found = self.errors(method, template, body)
        if not found:
            return
        form = FormErrors()
        for error in found:
            form.add(error.path, error.code, error.message)
        rules = "; ".join(f"{'.'.join(map(str, e.path)) or '(body)'}: {e.rule}" for e in found)
        raise DiscordHTTPError(
            400, 50035, "Invalid Form Body", form.tree, detail=f"OpenAPI spec: {rules}"
        )

    def _validator(self, method: str, template: str) -> Any:
        key = (method, template)
        validator = self._validators.get(key)
        if validator is None:
            pointer = _pointer(
                "", "paths", template, method.lower(), "requestBody", "content",
                "application/json", "schema",
            )  # fmt: skip
            validator = _validator_class(self)(
                {"$ref": f"{_BASE_URI}#{pointer}"}, registry=self._registry_of_refs()
            )
            self._validators[key] = validator
        return validator

    def _registry_of_refs(self) -> Any:
        if self._registry is None:
            from referencing import Registry, Resource
            from referencing.jsonschema import DRAFT202012

            resource = Resource.from_contents(self.spec, default_specification=DRAFT202012)
            self._registry = Registry().with_resource(_BASE_URI, resource)
        return self._registry

    def resolve(self, schema: Any) -> Any:
        """A schema with its local `$ref` (#/components/schemas/...) followed."""
        while isinstance(schema, dict) and isinstance(schema.get("$ref"), str):
            ref: str = schema["$ref"]
            if not ref.startswith("#/"):
                break
            node: Any = self.spec
            for part in ref[2:].split("/"):
                node = node[part.replace("~1", "/").replace("~0", "~")]
            schema = node
        return schema

    def type_tags(self, schema: Any) -> frozenset[Any] | None:
        """The values of `type` an object schema allows (its enum or const), if it says."""
        resolved = self.resolve(schema)
        if not isinstance(resolved, dict):
            return None
        tag = self.resolve((resolved.get("properties") or {}).get("type"))
        if not isinstance(tag, dict):
            return None
        if "const" in tag:
            return frozenset([tag["const"]])
        if isinstance(tag.get("enum"), list):
            return frozenset(tag["enum"])
        return None


def _is_null_schema(schema: Any) -> bool:
    return isinstance(schema, dict) and schema.get("type") == "null" and len(schema) == 1


def _is_snowflake_int(schema: Any, instance: Any) -> bool:
    return (
        isinstance(schema, dict)
        and schema.get("format") == "snowflake"
        and isinstance(instance, int)
        and not isinstance(instance, bool)
        and instance >= 0
    )


@functools.cache
def _validator_class(spec: SpecValidator) -> Any:
    from jsonschema import Draft202012Validator, validators

    draft_type = Draft202012Validator.VALIDATORS["type"]

    def type_(validator: Any, types: Any, instance: Any, schema: Any) -> Iterator[Any]:
        if _is_snowflake_int(schema, instance):
            return  # Discord takes an integer snowflake where its spec says a string
        allowed = types if isinstance(types, list) else [types]
        if "integer" in allowed and isinstance(instance, str) and _DIGITS.match(instance):
            return  # "Our API accepts strings for int fields if they are parseable as ints"
        yield from draft_type(validator, types, instance, schema)

    any_of = Draft202012Validator.VALIDATORS["anyOf"]

    def union(validator: Any, branches: Any, instance: Any, schema: Any) -> Iterator[Any]:
        real = [branch for branch in branches if not _is_null_schema(branch)]
        if instance is None and len(real) < len(branches):
            return
        tags = [spec.type_tags(branch) for branch in real]
        known = [tag for tag in tags if tag is not None]
        tag_of = instance.get("type") if isinstance(instance, dict) else None
        if isinstance(tag_of, int | str) and real and len(known) == len(real):
            chosen = [b for b, tag in zip(real, known, strict=True) if tag_of in tag]
            if chosen:
                yield from validator.descend(instance, chosen[0])
            else:
                every = sorted({t for tag in known for t in tag}, key=lambda t: (str(type(t)), t))
                yield from validator.descend(tag_of, {"enum": every}, path="type")
            return
        if len(real) == 1:
            yield from validator.descend(instance, real[0])
            return
        # Discord's unions take one member, and oneOf is no stricter than anyOf there
        # ("they all mean that only one type from the list can be used"); and with the
        # leniencies above a string of digits fits an integer and a string both.
        yield from any_of(validator, branches, instance, schema)

    return validators.extend(
        Draft202012Validator,
        {"type": type_, "oneOf": union, "anyOf": union},
    )


def _leaves(errors: Iterator[Any]) -> Iterator[Any]:
    """Each error, or for a union none of whose members fits, the likeliest member's."""
    from jsonschema.exceptions import best_match

    for error in errors:
        if error.context:
            yield from _leaves(iter([best_match(error.context)]))
        else:
            yield error


_TYPE_ERRORS = {
    "string": ("BASE_TYPE_STRING", "Could not interpret {value} as string."),
    "integer": ("NUMBER_TYPE_COERCE", 'Value "{value}" is not int.'),
    "number": ("NUMBER_TYPE_COERCE", 'Value "{value}" is not a number.'),
    "boolean": ("BASE_TYPE_BOOLEAN", "Must be either true or false."),
    "object": ("MODEL_TYPE_CONVERT", "Only dictionaries may be used in a ModelType"),
    "array": ("BASE_TYPE_ARRAY", "Only iterables may be used in a ListType"),
}


def _length(kind: str, schema: dict[str, Any], noun: str) -> tuple[str, str]:
    low, high = schema.get(f"min{noun}", 0), schema.get(f"max{noun}")
    if high is not None and low:
        return "BASE_TYPE_BAD_LENGTH", f"Must be between {low} and {high} in length."
    if kind.startswith("max"):
        return "BASE_TYPE_MAX_LENGTH", f"Must be {high} or fewer in length."
    return "BASE_TYPE_MIN_LENGTH", f"Must be {low} or more in length."


def _spec_error(error: Any) -> SpecError:
    """A jsonschema error as Discord words the same refusal."""
    kind, value, schema = error.validator, error.validator_value, error.schema
    path: tuple[str | int, ...] = tuple(error.absolute_path)
    rule = f"{kind} {json.dumps(value)[:80]} at {'/'.join(map(str, error.absolute_schema_path))}"
    snowflake = isinstance(schema, dict) and schema.get("format") == "snowflake"
    code, message = "BASE_TYPE_INVALID", str(error.message)
    if kind == "required":
        missing = next((name for name in value if name not in error.instance), "")
        path = (*path, missing)
        code, message = "BASE_TYPE_REQUIRED", "This field is required"
    elif kind in ("maxLength", "minLength"):
        code, message = _length(kind, schema, "Length")
    elif kind in ("maxItems", "minItems"):
        code, message = _length(kind, schema, "Items")
    elif kind in ("pattern", "type") and snowflake:
        code, message = "NUMBER_TYPE_COERCE", f'Value "{error.instance}" is not snowflake.'
    elif kind == "type":
        first = value[0] if isinstance(value, list) else value
        code, message = _TYPE_ERRORS.get(first, (code, message))
        message = message.format(value=error.instance)
    elif kind in ("enum", "const"):
        allowed = value if kind == "enum" else [value]
        code = "BASE_TYPE_CHOICES"
        message = f"Value must be one of {{{', '.join(map(str, allowed))}}}."
    elif kind in ("minimum", "exclusiveMinimum"):
        code, message = "NUMBER_TYPE_MIN", f"int value should be greater than or equal to {value}."
    elif kind in ("maximum", "exclusiveMaximum"):
        code, message = "NUMBER_TYPE_MAX", f"int value should be less than or equal to {value}."
    elif kind in ("oneOf", "anyOf"):
        code, message = "UNION_TYPE_CHOICES", "Value did not match any of the allowed types."
    return SpecError(path, code, message, rule)
