"""Pages of reviews."""

urlpatterns: list = []
