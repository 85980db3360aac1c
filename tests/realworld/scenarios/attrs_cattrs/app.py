# -*- coding: lazy -*-
"""An attrs/cattrs application module: classes with postponed annotations that
name lazily imported types, resolved with attrs.resolve_types, (un)structured
with a cattrs converter."""

from __future__ import annotations

lazy import enum
lazy import secrets
lazy from datetime import date, datetime
lazy from decimal import Decimal
lazy from typing import Dict, List, Optional

lazy import attrs
lazy import cattrs


class Kind(enum.Enum):
    POLYGON = 'polygon'
    LINE = 'line'


@attrs.define
class Point:
    x: int
    y: int = 0


@attrs.define
class Shape:
    name: str
    kind: Kind
    points: List[Point] = attrs.field(factory=list)
    created: Optional[date] = None
    stamp: Optional[datetime] = None
    weight: Decimal = Decimal('1')
    meta: Dict[str, float] = attrs.Factory(dict)


@attrs.frozen
class Tag:
    label: str = attrs.field(validator=attrs.validators.min_len(1))


def converter():
    c = cattrs.Converter()
    c.register_structure_hook(date, lambda v, _: date.fromisoformat(v))
    c.register_unstructure_hook(date, lambda d: d.isoformat())
    c.register_structure_hook(Decimal, lambda v, _: Decimal(str(v)))
    c.register_unstructure_hook(Decimal, str)
    return c


def resolve():
    attrs.resolve_types(Point)
    attrs.resolve_types(Shape)
    attrs.resolve_types(Tag)
    return {f.name: f.type for f in attrs.fields(Shape)}


def token():
    """never called: `secrets` stays lazy"""
    return secrets.token_hex(4)
