# -*- coding: lazy -*-
"""A FastAPI application module: routes with a pydantic body, a dependency, an
HTTPException, a module that warns at import, a deprecated name of starlette."""

from __future__ import annotations

lazy import secrets
lazy from datetime import date
lazy from decimal import Decimal
lazy from typing import List, Optional

lazy import legacy_tools
lazy from fastapi import Depends, FastAPI, HTTPException, Query
lazy from fastapi.responses import PlainTextResponse
lazy from fastapi.testclient import TestClient
lazy from pydantic import BaseModel, Field
lazy from starlette.status import HTTP_422_UNPROCESSABLE_ENTITY

app = FastAPI(title='shop', version='1')
STARTED = []


class ItemIn(BaseModel):
    name: str = Field(min_length=1)
    price: Decimal
    tags: List[str] = []
    due: Optional[date] = None


class ItemOut(ItemIn):
    id: int


DB: dict = {}


def get_db() -> dict:
    return DB


@app.on_event('startup')
def startup() -> None:
    STARTED.append('started')


@app.post('/items', response_model=ItemOut, status_code=201)
def create_item(item: ItemIn, db: dict = Depends(get_db)) -> ItemOut:
    out = ItemOut(id=len(db) + 1, **item.model_dump())
    db[out.id] = out
    return out


@app.get('/items/{item_id}', response_model=ItemOut)
async def read_item(item_id: int, db: dict = Depends(get_db)) -> ItemOut:
    if item_id not in db:
        raise HTTPException(status_code=404, detail=f'no item {item_id}')
    return db[item_id]


@app.get('/search')
def search(q: Optional[str] = Query(None, max_length=5), limit: int = 10) -> dict:
    return {'q': q, 'limit': limit, 'hits': sorted(i.name for i in DB.values() if q and q in i.name)}


@app.get('/legacy', response_class=PlainTextResponse)
def legacy() -> str:
    return legacy_tools.shout('legacy')


@app.get('/status')
def status() -> dict:
    return {'code': HTTP_422_UNPROCESSABLE_ENTITY}


def client():
    return TestClient(app)


def token():
    """never called: `secrets` stays lazy"""
    return secrets.token_hex(4)
