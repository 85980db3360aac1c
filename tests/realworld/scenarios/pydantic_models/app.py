# -*- coding: lazy -*-
"""A pydantic application module: models with postponed annotations that name
lazily imported types (forward references resolved by pydantic)."""

from __future__ import annotations

lazy import datetime
lazy import ipaddress
lazy import json
lazy import secrets
lazy from decimal import Decimal
lazy from enum import Enum
lazy from typing import Dict, List, Literal, Optional
lazy from uuid import UUID

lazy from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    TypeAdapter,
    ValidationError,
    computed_field,
    field_validator,
    model_validator,
)


class Color(str, Enum):
    red = 'red'
    green = 'green'


class Item(BaseModel):
    model_config = ConfigDict(str_strip_whitespace=True)

    name: str
    price: Decimal
    color: Color = Color.red
    tags: List[str] = Field(default_factory=list, max_length=3)

    @field_validator('name')
    @classmethod
    def title_name(cls, value: str) -> str:
        return value.title()


class Order(BaseModel):
    id: UUID
    when: datetime.date
    items: List[Item]
    kind: Literal['retail', 'wholesale'] = 'retail'
    parent: Optional[Order] = None
    extra: Dict[str, int] = {}

    @computed_field
    @property
    def total(self) -> Decimal:
        return sum((item.price for item in self.items), Decimal(0))

    @model_validator(mode='after')
    def not_empty(self) -> Order:
        if not self.items:
            raise ValueError('an order has items')
        return self


def host_model():
    """a model defined late, whose annotation names a module not yet used"""

    class Host(BaseModel):
        addr: ipaddress.IPv4Address
        port: int = 80

    return Host


def dumps(value):
    return json.dumps(value, sort_keys=True, default=str)


def error_summary(exc: ValidationError):
    return [(e['type'], e['loc']) for e in exc.errors()]


def adapter():
    return TypeAdapter(List[Decimal])


def is_error(exc):
    return isinstance(exc, ValidationError)


def token():
    """never called: `secrets` stays lazy"""
    return secrets.token_hex(4)
