"""API routes of reviews under /api/v1/."""

urlpatterns: list = []
