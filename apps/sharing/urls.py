"""Pages of sharing."""

urlpatterns: list = []
