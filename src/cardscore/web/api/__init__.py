"""The JSON API under ``/api`` (documented at ``/api/docs``; the spec at ``/api/openapi.json``):
the shared operations in :mod:`.routes`, each game's own in the router its registry entry names."""
