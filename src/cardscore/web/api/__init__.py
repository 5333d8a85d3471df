"""The JSON API under ``/api`` (documented at ``/api/docs``; the spec at ``/api/openapi.json``)."""

from cardscore.web.api.routes import router

__all__ = ["router"]
