"""API routes of sharing under /api/v1/."""

urlpatterns: list = []
