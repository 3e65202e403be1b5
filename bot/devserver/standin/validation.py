"""What Discord enforces on what the bot sends, with Discord's own error codes and
messages: messages (content, embeds, components, legacy rows and components v2),
modals and application commands."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Collection, Mapping
from typing import Any

from bot.devserver.standin.constants import (
    CT_ACTION_ROW,
    CT_BUTTON,
    CT_CONTAINER,
    CT_LABEL,
    CT_SECTION,
    CT_STRING_SELECT,
    CT_TEXT_DISPLAY,
    CT_TEXT_INPUT,
    CT_THUMBNAIL,
    FLAG_IS_COMPONENTS_V2,
    OPT_GROUP,
    OPT_INTEGER,
    OPT_NUMBER,
    OPT_STRING,
    OPT_SUB_COMMAND,
    SELECT_TYPES,
    V2_TOP_LEVEL,
)
from bot.devserver.standin.errors import FormErrors

_COMMAND_NAME_RE = re.compile(r"^[-_'\w]{1,32}$")

Path = tuple[str | int, ...]


def _length_error(errors: FormErrors, path: Path, size: int, *, min_len: int, max_len: int) -> None:
    """Discord's error for a string or list whose length is out of bounds."""
    if size > max_len or size < min_len:
        if min_len:
            errors.add(
                path, "BASE_TYPE_BAD_LENGTH", f"Must be between {min_len} and {max_len} in length."
            )
        else:
            errors.add(path, "BASE_TYPE_MAX_LENGTH", f"Must be {max_len} or fewer in length.")


def check_str(
    errors: FormErrors,
    path: Path,
    value: Any,
    *,
    max_len: int,
    min_len: int = 0,
    required: bool = False,
) -> str:
    if value is None or (required and value == ""):
        if required:
            errors.add(path, "BASE_TYPE_REQUIRED", "This field is required")
        return ""
    if not isinstance(value, str):
        errors.add(path, "BASE_TYPE_STRING", "Could not interpret value as string.")
        return ""
    _length_error(errors, path, len(value), min_len=min_len, max_len=max_len)
    return value


def check_list(
    errors: FormErrors, path: Path, value: Any, *, max_len: int, min_len: int = 0
) -> list[Any]:
    if value is None:
        if min_len:
            errors.add(path, "BASE_TYPE_REQUIRED", "This field is required")
        return []
    if not isinstance(value, list):
        errors.add(path, "BASE_TYPE_ARRAY", "Only iterables may be used in a ListType")
        return []
    _length_error(errors, path, len(value), min_len=min_len, max_len=max_len)
    return value


def check_int(
    errors: FormErrors, path: Path, value: Any, *, low: int, high: int, required: bool = False
) -> int | None:
    if value is None:
        if required:
            errors.add(path, "BASE_TYPE_REQUIRED", "This field is required")
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        errors.add(path, "NUMBER_TYPE_COERCE", f'Value "{value}" is not int.')
        return None
    if value < low:
        errors.add(path, "NUMBER_TYPE_MIN", f"int value should be greater than or equal to {low}.")
    elif value > high:
        errors.add(path, "NUMBER_TYPE_MAX", f"int value should be less than or equal to {high}.")
    return value


def check_url(errors: FormErrors, path: Path, value: Any, *, required: bool = False) -> None:
    url = check_str(errors, path, value, max_len=2048, required=required)
    if url and not re.match(r"^(https?|attachment|discord)://\S+$", url):
        errors.add(path, "URL_TYPE_INVALID_URL", "Not a well formed URL.")


def is_model(errors: FormErrors, path: Path, value: Any) -> bool:
    if isinstance(value, dict):
        return True
    errors.add(path, "MODEL_TYPE_CONVERT", "Only dictionaries may be used in a ModelType")
    return False


def validate_embeds(errors: FormErrors, path: Path, embeds: Any) -> None:
    embeds = check_list(errors, path, embeds, max_len=10)
    total = 0
    for index, embed in enumerate(embeds):
        p: Path = (*path, index)
        if not is_model(errors, p, embed):
            continue
        total += len(check_str(errors, (*p, "title"), embed.get("title"), max_len=256))
        total += len(check_str(errors, (*p, "description"), embed.get("description"), max_len=4096))
        check_url(errors, (*p, "url"), embed.get("url"))
        check_int(errors, (*p, "color"), embed.get("color"), low=0, high=0xFFFFFF)
        timestamp = embed.get("timestamp")
        if timestamp is not None:
            try:
                dt.datetime.fromisoformat(str(timestamp))
            except ValueError:
                errors.add((*p, "timestamp"), "DATE_TIME_TYPE_PARSE", "Could not parse timestamp.")
        footer = embed.get("footer")
        if footer is not None and is_model(errors, (*p, "footer"), footer):
            text = footer.get("text")
            total += len(
                check_str(errors, (*p, "footer", "text"), text, max_len=2048, required=True)
            )
            check_url(errors, (*p, "footer", "icon_url"), footer.get("icon_url"))
        author = embed.get("author")
        if author is not None and is_model(errors, (*p, "author"), author):
            name = author.get("name")
            total += len(
                check_str(errors, (*p, "author", "name"), name, max_len=256, required=True)
            )
            check_url(errors, (*p, "author", "url"), author.get("url"))
            check_url(errors, (*p, "author", "icon_url"), author.get("icon_url"))
        for key in ("image", "thumbnail"):
            media = embed.get(key)
            if media is not None and is_model(errors, (*p, key), media):
                check_url(errors, (*p, key, "url"), media.get("url"), required=True)
        fields = check_list(errors, (*p, "fields"), embed.get("fields"), max_len=25)
        for j, fld in enumerate(fields):
            q: Path = (*p, "fields", j)
            if not is_model(errors, q, fld):
                continue
            name = check_str(errors, (*q, "name"), fld.get("name"), max_len=256, required=True)
            value = check_str(errors, (*q, "value"), fld.get("value"), max_len=1024, required=True)
            total += len(name) + len(value)
            inline = fld.get("inline")
            if inline is not None and not isinstance(inline, bool):
                errors.add((*q, "inline"), "BASE_TYPE_BOOLEAN", "Must be either true or false.")
    if total > 6000:
        errors.add(path, "MAX_EMBED_SIZE_EXCEEDED", "Embed size exceeds maximum size of 6000")


def _ctype(component: Any) -> int | None:
    return component.get("type") if isinstance(component, dict) else None


class ComponentChecker:
    """Component rules, shared by messages (legacy rows or components v2) and modals."""

    def __init__(self, errors: FormErrors, emoji_ids: Collection[str] | None = None) -> None:
        self.errors = errors
        self.emoji_ids = emoji_ids  # the custom emojis the bot may use; None: any
        self.custom_ids: set[str] = set()
        self.count = 0

    def custom_id(self, path: Path, component: dict[str, Any]) -> None:
        cid = check_str(
            self.errors,
            (*path, "custom_id"),
            component.get("custom_id"),
            max_len=100,
            min_len=1,
            required=True,
        )
        if cid:
            if cid in self.custom_ids:
                self.errors.add(
                    (*path, "custom_id"),
                    "COMPONENT_CUSTOM_ID_DUPLICATED",
                    "Component custom id cannot be duplicated",
                )
            self.custom_ids.add(cid)

    def emoji(self, path: Path, emoji: Any) -> None:
        if emoji is None or not is_model(self.errors, path, emoji):
            return
        emoji_id = emoji.get("id")
        if not emoji_id and not emoji.get("name"):
            self.errors.add(path, "BUTTON_COMPONENT_INVALID_EMOJI", "Invalid emoji")
        elif emoji_id and self.emoji_ids is not None and str(emoji_id) not in self.emoji_ids:
            # A bot's components take its application's emojis (and those of guilds it is
            # in, which the stand-in has none of); Discord names the id.
            self.errors.add((*path, "id"), "BUTTON_COMPONENT_INVALID_EMOJI", "Invalid emoji")

    def button(self, path: Path, button: dict[str, Any]) -> None:
        e = self.errors
        style = button.get("style")
        if style not in (1, 2, 3, 4, 5, 6):
            e.add((*path, "style"), "BASE_TYPE_CHOICES", "Value must be one of {1, 2, 3, 4, 5, 6}.")
        check_str(e, (*path, "label"), button.get("label"), max_len=80)
        self.emoji((*path, "emoji"), button.get("emoji"))
        if style == 5:
            check_url(e, (*path, "url"), button.get("url"), required=True)
            if button.get("custom_id") is not None:
                e.add(
                    (*path, "custom_id"),
                    "BUTTON_COMPONENT_CUSTOM_ID_NOT_ALLOWED",
                    "A link button cannot have a custom_id",
                )
        elif style == 6:
            if not button.get("sku_id"):
                e.add((*path, "sku_id"), "BASE_TYPE_REQUIRED", "This field is required")
            for key in ("custom_id", "url", "label", "emoji"):
                if button.get(key) is not None:
                    e.add((*path, key), "BUTTON_COMPONENT_PREMIUM_FIELD", "Not allowed on premium")
        else:
            self.custom_id(path, button)
            if button.get("url") is not None:
                e.add(
                    (*path, "url"),
                    "BUTTON_COMPONENT_URL_NOT_ALLOWED",
                    "A non-link button cannot have a url",
                )
        if style != 6 and not button.get("label") and not button.get("emoji"):
            e.add(
                path,
                "BUTTON_COMPONENT_LABEL_OR_EMOJI_REQUIRED",
                "A button must have a label or an emoji",
            )

    def select(self, path: Path, select: dict[str, Any]) -> None:
        e = self.errors
        self.custom_id(path, select)
        check_str(e, (*path, "placeholder"), select.get("placeholder"), max_len=150)
        low = check_int(e, (*path, "min_values"), select.get("min_values"), low=0, high=25)
        high = check_int(e, (*path, "max_values"), select.get("max_values"), low=1, high=25)
        if low is not None and high is not None and low > high:
            e.add((*path, "min_values"), "SELECT_COMPONENT_MIN_MAX", "min_values > max_values")
        if select.get("type") != CT_STRING_SELECT:
            return
        opts = check_list(e, (*path, "options"), select.get("options"), max_len=25, min_len=1)
        values: set[str] = set()
        for j, opt in enumerate(opts):
            q: Path = (*path, "options", j)
            if not is_model(e, q, opt):
                continue
            check_str(e, (*q, "label"), opt.get("label"), max_len=100, min_len=1, required=True)
            value = check_str(
                e, (*q, "value"), opt.get("value"), max_len=100, min_len=1, required=True
            )
            check_str(e, (*q, "description"), opt.get("description"), max_len=100)
            self.emoji((*q, "emoji"), opt.get("emoji"))
            if value in values:
                e.add(
                    (*q, "value"),
                    "SELECT_COMPONENT_OPTION_VALUE_DUPLICATED",
                    "Select options must have unique values",
                )
            values.add(value)
        if high is not None and opts and high > len(opts):
            e.add(
                (*path, "max_values"),
                "BASE_TYPE_MAX",
                f"Must be less than or equal to {len(opts)}.",
            )

    def text_input(self, path: Path, component: dict[str, Any], *, in_label: bool) -> None:
        e = self.errors
        self.custom_id(path, component)
        if component.get("style") not in (1, 2):
            e.add((*path, "style"), "BASE_TYPE_CHOICES", "Value must be one of {1, 2}.")
        if not in_label:
            label = component.get("label")
            check_str(e, (*path, "label"), label, max_len=45, min_len=1, required=True)
        check_int(e, (*path, "min_length"), component.get("min_length"), low=0, high=4000)
        check_int(e, (*path, "max_length"), component.get("max_length"), low=1, high=4000)
        check_str(e, (*path, "value"), component.get("value"), max_len=4000)
        check_str(e, (*path, "placeholder"), component.get("placeholder"), max_len=100)

    def action_row(self, path: Path, row: dict[str, Any], *, modal: bool = False) -> None:
        e = self.errors
        children_path: Path = (*path, "components")
        children = check_list(e, children_path, row.get("components"), max_len=5, min_len=1)
        if any(_ctype(c) in SELECT_TYPES or _ctype(c) == CT_TEXT_INPUT for c in children) and (
            len(children) > 1
        ):
            e.add(
                children_path,
                "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
                "The specified component exceeds the maximum width",
            )
        for j, child in enumerate(children):
            q: Path = (*children_path, j)
            if not is_model(e, q, child):
                continue
            self.count += 1
            kind = child.get("type")
            if kind == CT_BUTTON and not modal:
                self.button(q, child)
            elif kind in SELECT_TYPES:
                self.select(q, child)
            elif kind == CT_TEXT_INPUT and modal:
                self.text_input(q, child, in_label=False)
            else:
                e.add(
                    (*q, "type"),
                    "COMPONENT_TYPE_INVALID",
                    f"Component type {kind} is not allowed here",
                )

    def v2(self, path: Path, component: Any, *, allowed: frozenset[int] = V2_TOP_LEVEL) -> None:
        e = self.errors
        if not is_model(e, path, component):
            return
        self.count += 1
        kind = component.get("type")
        if kind not in allowed:
            e.add((*path, "type"), "COMPONENT_TYPE_INVALID", f"Component type {kind} not allowed")
        elif kind == CT_ACTION_ROW:
            self.action_row(path, component)
        elif kind == CT_TEXT_DISPLAY:
            text = component.get("content")
            check_str(e, (*path, "content"), text, max_len=4000, min_len=1, required=True)
        elif kind == CT_SECTION:
            texts = check_list(
                e, (*path, "components"), component.get("components"), max_len=3, min_len=1
            )
            for j, child in enumerate(texts):
                self.v2((*path, "components", j), child, allowed=frozenset({CT_TEXT_DISPLAY}))
            accessory = component.get("accessory")
            if accessory is None:
                e.add((*path, "accessory"), "BASE_TYPE_REQUIRED", "This field is required")
            elif is_model(e, (*path, "accessory"), accessory):
                self.count += 1
                if accessory.get("type") == CT_BUTTON:
                    self.button((*path, "accessory"), accessory)
                elif accessory.get("type") != CT_THUMBNAIL:
                    e.add((*path, "accessory", "type"), "COMPONENT_TYPE_INVALID", "Bad accessory")
        elif kind == CT_CONTAINER:
            children = check_list(
                e, (*path, "components"), component.get("components"), max_len=40, min_len=1
            )
            inner = frozenset({1, 9, 10, 12, 13, 14})
            for j, child in enumerate(children):
                self.v2((*path, "components", j), child, allowed=inner)


def validate_components(
    errors: FormErrors,
    path: Path,
    components: Any,
    *,
    v2: bool,
    emoji_ids: Collection[str] | None = None,
) -> None:
    checker = ComponentChecker(errors, emoji_ids)
    rows = check_list(errors, path, components, max_len=40 if v2 else 5)
    for index, component in enumerate(rows):
        p: Path = (*path, index)
        if v2:
            checker.v2(p, component)
        elif _ctype(component) != CT_ACTION_ROW:
            errors.add(
                (*p, "type"), "UNION_TYPE_CHOICES", 'Value of field "type" must be one of (1,).'
            )
        else:
            checker.action_row(p, component)
    if v2 and checker.count > 40:
        errors.add(
            path,
            "COMPONENT_MAX_TOTAL_COMPONENTS_EXCEEDED",
            "The maximum number of components was exceeded (40).",
        )


def validate_message_fields(
    errors: FormErrors,
    prefix: Path,
    body: Mapping[str, Any],
    *,
    allowed_flags: int,
    emoji_ids: Collection[str] | None = None,
) -> None:
    """Field-level checks of a create or edit body (emptiness is checked on the result);
    with `emoji_ids`, a component's custom emoji must be one of them."""
    content = check_str(errors, (*prefix, "content"), body.get("content"), max_len=2000)
    flags = body.get("flags")
    if flags is not None:
        if isinstance(flags, bool) or not isinstance(flags, int):
            errors.add((*prefix, "flags"), "NUMBER_TYPE_COERCE", f'Value "{flags}" is not int.')
            flags = 0
        elif flags & ~allowed_flags:
            errors.add((*prefix, "flags"), "MESSAGE_FLAGS_INVALID", "Invalid flags were set.")
    v2 = bool((flags or 0) & FLAG_IS_COMPONENTS_V2)
    if "embeds" in body:
        validate_embeds(errors, (*prefix, "embeds"), body.get("embeds"))
    if body.get("components") is not None:
        validate_components(
            errors, (*prefix, "components"), body["components"], v2=v2, emoji_ids=emoji_ids
        )
    if v2 and (content or body.get("embeds")):
        errors.add(
            (*prefix, "content" if content else "embeds"),
            "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
            "The 'content' and 'embeds' fields cannot be used when using "
            "MessageFlags.IS_COMPONENTS_V2",
        )


def validate_modal(
    errors: FormErrors,
    prefix: Path,
    data: Mapping[str, Any],
    *,
    emoji_ids: Collection[str] | None = None,
) -> None:
    checker = ComponentChecker(errors, emoji_ids)
    checker.custom_id(prefix, dict(data))
    title = data.get("title")
    check_str(errors, (*prefix, "title"), title, max_len=45, min_len=1, required=True)
    path: Path = (*prefix, "components")
    rows = check_list(errors, path, data.get("components"), max_len=5, min_len=1)
    for index, row in enumerate(rows):
        p: Path = (*path, index)
        if not is_model(errors, p, row):
            continue
        if row.get("type") == CT_ACTION_ROW:
            checker.action_row(p, row, modal=True)
        elif row.get("type") == CT_LABEL:
            check_str(errors, (*p, "label"), row.get("label"), max_len=45, min_len=1)
            inner = row.get("component")
            if is_model(errors, (*p, "component"), inner):
                if inner.get("type") == CT_TEXT_INPUT:
                    checker.text_input((*p, "component"), inner, in_label=True)
                elif inner.get("type") in SELECT_TYPES:
                    checker.select((*p, "component"), inner)
        elif row.get("type") != CT_TEXT_DISPLAY:
            errors.add((*p, "type"), "COMPONENT_TYPE_INVALID", "Not allowed in a modal")


def validate_command(errors: FormErrors, path: Path, cmd: Any) -> None:
    if not is_model(errors, path, cmd):
        return
    kind = cmd.get("type", 1)
    if kind not in (1, 2, 3, 4):
        errors.add((*path, "type"), "BASE_TYPE_CHOICES", "Value must be one of {1, 2, 3, 4}.")
    name = cmd.get("name")
    if not isinstance(name, str) or not name or len(name) > 32:
        errors.add((*path, "name"), "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 32 in length.")
    elif kind in (1, 4) and (not _COMMAND_NAME_RE.match(name) or name != name.lower()):
        errors.add((*path, "name"), "APPLICATION_COMMAND_INVALID_NAME", "Command name is invalid")
    description = cmd.get("description")
    if kind == 1:
        check_str(
            errors, (*path, "description"), description, max_len=100, min_len=1, required=True
        )
    elif kind == 4:  # an Entry Point's may be empty (the portal's "launch" has none)
        check_str(errors, (*path, "description"), description, max_len=100)
    elif description:
        errors.add(
            (*path, "description"),
            "APPLICATION_COMMAND_CONTEXT_MENU_DESCRIPTION",
            "Context menu commands cannot have a description",
        )
    options = check_list(errors, (*path, "options"), cmd.get("options"), max_len=25)
    if options and kind != 1:
        errors.add((*path, "options"), "APPLICATION_COMMAND_OPTIONS_INVALID", "Not allowed")
    _validate_options(errors, (*path, "options"), options, parent=None)
    if _command_size(cmd) > 8000:
        errors.add(path, "APPLICATION_COMMAND_TOO_LARGE", "Command exceeds maximum size (8000)")


def _command_size(cmd: Mapping[str, Any]) -> int:
    size = len(str(cmd.get("name") or "")) + len(str(cmd.get("description") or ""))
    for opt in cmd.get("options") or []:
        if isinstance(opt, dict):
            size += _command_size(opt)
            for choice in opt.get("choices") or []:
                if isinstance(choice, dict):
                    size += len(str(choice.get("name"))) + len(str(choice.get("value")))
    return size


def _validate_options(
    errors: FormErrors, path: Path, options: list[Any], *, parent: int | None
) -> None:
    """Options of a command (``parent`` None), of a sub-command group or of a sub-command."""
    names: set[str] = set()
    kinds = [o.get("type") for o in options if isinstance(o, dict)]
    nested = [k for k in kinds if k in (OPT_SUB_COMMAND, OPT_GROUP)]
    if nested and len(nested) != len(kinds):
        errors.add(
            path,
            "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID",
            "Sub-command and sub-command group option types are mutually exclusive to all other "
            "types",
        )
    seen_optional = False
    for index, opt in enumerate(options):
        p: Path = (*path, index)
        if not is_model(errors, p, opt):
            continue
        kind = opt.get("type")
        if kind not in range(1, 12):
            errors.add((*p, "type"), "BASE_TYPE_CHOICES", "Value must be one of {1, ..., 11}.")
        name = opt.get("name")
        if not isinstance(name, str) or not _COMMAND_NAME_RE.match(name) or name != name.lower():
            errors.add((*p, "name"), "APPLICATION_COMMAND_INVALID_NAME", "Command name is invalid")
        elif name in names:
            errors.add(
                (*p, "name"),
                "APPLICATION_COMMAND_OPTIONS_NAME_ALREADY_EXISTS",
                "Option names must be unique",
            )
        else:
            names.add(name)
        description = opt.get("description")
        check_str(errors, (*p, "description"), description, max_len=100, min_len=1, required=True)
        misplaced = (parent == OPT_GROUP and kind != OPT_SUB_COMMAND) or (
            parent == OPT_SUB_COMMAND and kind in (OPT_SUB_COMMAND, OPT_GROUP)
        )
        if misplaced:
            errors.add(
                (*p, "type"),
                "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID",
                "A sub-command group holds only sub-commands; a sub-command no sub-commands",
            )
        if kind in (OPT_SUB_COMMAND, OPT_GROUP):
            children = check_list(errors, (*p, "options"), opt.get("options"), max_len=25)
            _validate_options(errors, (*p, "options"), children, parent=kind)
            continue
        if opt.get("required"):
            if seen_optional:
                errors.add(
                    (*p, "required"),
                    "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID",
                    "Required options must be placed before non-required options",
                )
        else:
            seen_optional = True
        choices = check_list(errors, (*p, "choices"), opt.get("choices"), max_len=25)
        if choices and opt.get("autocomplete"):
            errors.add(
                (*p, "autocomplete"),
                "APPLICATION_COMMAND_AUTOCOMPLETE_INVALID",
                "Autocomplete cannot be set on an option with choices",
            )
        if choices and kind not in (OPT_STRING, OPT_INTEGER, OPT_NUMBER):
            errors.add((*p, "choices"), "APPLICATION_COMMAND_OPTIONS_INVALID", "No choices here")
        for j, choice in enumerate(choices):
            q: Path = (*p, "choices", j)
            if not is_model(errors, q, choice):
                continue
            check_str(errors, (*q, "name"), choice.get("name"), max_len=100, min_len=1)
            value = choice.get("value")
            if kind == OPT_STRING:
                check_str(errors, (*q, "value"), value, max_len=100, min_len=1, required=True)
            elif isinstance(value, bool) or not isinstance(value, int | float):
                errors.add((*q, "value"), "NUMBER_TYPE_COERCE", f'Value "{value}" is not a number.')
        if kind == OPT_STRING:
            check_int(errors, (*p, "min_length"), opt.get("min_length"), low=0, high=6000)
            check_int(errors, (*p, "max_length"), opt.get("max_length"), low=1, high=6000)
