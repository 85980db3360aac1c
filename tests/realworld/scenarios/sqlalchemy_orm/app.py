# -*- coding: lazy -*-
"""A SQLAlchemy ORM application module: declarative models whose `Mapped[...]`
annotations (postponed) name lazily imported types, an in-memory SQLite engine."""

from __future__ import annotations

lazy import datetime
lazy import secrets
lazy from decimal import Decimal
lazy from typing import List, Optional

lazy from sqlalchemy import ForeignKey, Numeric, String, create_engine, func, select
lazy from sqlalchemy.orm import (
    DeclarativeBase,
    Mapped,
    Session,
    mapped_column,
    relationship,
    selectinload,
)

# SQLAlchemy reads an annotation's outer name (`Mapped`) from this module's dict with
# a subscript (sqlalchemy.orm.util._cleanup_mapped_str_annotation), which hands out
# the lazy object itself, on 3.15 as here; it then takes the annotation as not
# `Mapped[...]`, does not quote the forward reference in `Mapped[List[Address]]`, and
# fails (MappedAnnotationError). One use of `Mapped` before the models puts the class
# in the dict, as an eager import does.
Mapped  # noqa: B018


class Base(DeclarativeBase):
    pass


class User(Base):
    __tablename__ = 'users'

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(30), unique=True)
    fullname: Mapped[Optional[str]]
    joined: Mapped[datetime.date]
    balance: Mapped[Decimal] = mapped_column(Numeric(10, 2), default=Decimal('0'))
    addresses: Mapped[List[Address]] = relationship(back_populates='user', cascade='all, delete-orphan')

    def __repr__(self) -> str:
        return f'User(id={self.id!r}, name={self.name!r}, fullname={self.fullname!r}, joined={self.joined!r})'


class Address(Base):
    __tablename__ = 'addresses'

    id: Mapped[int] = mapped_column(primary_key=True)
    email: Mapped[str]
    user_id: Mapped[int] = mapped_column(ForeignKey('users.id'))
    user: Mapped[User] = relationship(back_populates='addresses')

    def __repr__(self) -> str:
        return f'Address(email={self.email!r})'


def make_session() -> Session:
    engine = create_engine('sqlite://')
    Base.metadata.create_all(engine)
    return Session(engine)


def seed(session: Session) -> None:
    session.add_all(
        [
            User(
                name='spongebob',
                fullname='Spongebob Squarepants',
                joined=datetime.date(2024, 1, 2),
                balance=Decimal('10.25'),
                addresses=[Address(email='spongebob@sqlalchemy.org')],
            ),
            User(
                name='sandy',
                fullname='Sandy Cheeks',
                joined=datetime.date(2024, 3, 4),
                addresses=[Address(email='sandy@sqlalchemy.org'), Address(email='sandy@squirrelpower.org')],
            ),
            User(name='patrick', joined=datetime.date(2024, 5, 6)),
        ]
    )
    session.commit()


def queries(session: Session):
    users = session.scalars(select(User).where(User.name.in_(['spongebob', 'sandy'])).order_by(User.id)).all()
    counts = session.execute(
        select(User.name, func.count(Address.id))
        .outerjoin(User.addresses)
        .group_by(User.name)
        .order_by(User.name)
    ).all()
    loaded = session.scalars(select(User).options(selectinload(User.addresses)).order_by(User.name)).all()
    sandy = session.scalars(select(User).filter_by(name='sandy')).one()
    sandy.addresses.pop(0)
    session.commit()
    left = session.scalars(select(Address.email).order_by(Address.email)).all()
    return users, counts, [(u.name, [a.email for a in u.addresses]) for u in loaded], left


def token():
    """never called: `secrets` stays lazy"""
    return secrets.token_hex(4)
