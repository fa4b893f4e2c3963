"""The page's own words (its buttons, labels and keys: the sentences of its scripts and its
HTML) in a language, for the page's ``t()``; the sentences about the game come with each
answer already in the reader's language."""

from __future__ import annotations

import functools
from typing import Literal

from fastapi import APIRouter, Query
from fastapi.responses import Response
from pydantic import BaseModel, Field

from shutthebox.language import LANGUAGES, RIGHT_TO_LEFT, catalogue, current_language
from shutthebox.web.codec import dumps

router = APIRouter(tags=["page"])


class Words(BaseModel):
    """A language's words for the page."""

    language: str = Field(description="the language's code, as `lang` takes it")
    direction: Literal["ltr", "rtl"] = Field(description="how the language is written")
    languages: dict[str, str] = Field(description="every language spoken, named in itself")
    words: dict[str, str] = Field(description="each English word or sentence of the page, "
                                              "in the language (English: none)")


@router.get("/words", response_model=Words)
async def words(lang: str | None = Query(None, max_length=16, description=(
        "the language (else the `lang` cookie's, else the Accept-Language header's)"))
                ) -> Response:
    """The page's own words in a language."""
    return Response(_words(current_language()), media_type="application/json",
                    headers={"Cache-Control": "no-cache", "Vary": "Cookie, Accept-Language"})


@functools.cache
def _words(code: str) -> bytes:
    return dumps({"language": code, "direction": "rtl" if code in RIGHT_TO_LEFT else "ltr",
                  "languages": LANGUAGES, "words": catalogue(code).script}).encode()
