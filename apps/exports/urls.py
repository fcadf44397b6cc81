"""Pages of exports."""

urlpatterns: list = []
