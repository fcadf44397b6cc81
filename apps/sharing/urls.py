"""Share-link pages: creating, listing and revoking links, and the shared pages themselves."""

from django.urls import path

from apps.sharing import views

urlpatterns = [
    path("scenarios/<int:scenario_id>/share/", views.scenario_share, name="scenario-share"),
    path("projects/<int:project_id>/share/", views.project_share, name="project-share"),
    path("share-links/", views.share_link_list, name="share-link-list"),
    path("share-links/<int:link_id>/revoke/", views.share_link_revoke, name="share-link-revoke"),
    path("s/<str:token>/", views.shared, name="shared"),
    path("s/<str:token>/<int:position>/", views.shared, name="shared-scenario"),
]
