"""API routes of exports under /api/v1/."""

urlpatterns: list = []
