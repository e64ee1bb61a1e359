"""Building trusted pydantic objects without validation, for engines' hot paths.

``BaseModel.model_construct`` still walks every field and its defaults (about 5 µs a call here), which
dominated random-play benchmarks once a state was cloned per action. Engines build objects they made
themselves from already-valid parts, so they may skip that walk. Anything from outside still goes through
``model_validate`` (JSON loading, ``GameSpec.parse_action``).
"""

from __future__ import annotations

from typing import Any, TypeVar

from pydantic import BaseModel

M = TypeVar("M", bound=BaseModel)
_set = object.__setattr__


def build(cls: type[M], fields: dict[str, Any]) -> M:
    """An instance of ``cls`` whose ``__dict__`` is ``fields``; every declared field must be present."""
    obj = cls.__new__(cls)
    _set(obj, "__dict__", fields)
    _set(obj, "__pydantic_fields_set__", set(fields))
    _set(obj, "__pydantic_extra__", None)
    _set(obj, "__pydantic_private__", None)
    return obj
