"""Share-link pages: creating, listing and revoking links, and the shared pages themselves."""

from django.urls import path

from apps.sharing import views

urlpatterns = [
    path("scenarios/<id:scenario_id>/share/", views.scenario_share, name="scenario-share"),
    path("projects/<id:project_id>/share/", views.project_share, name="project-share"),
    path("share-links/", views.share_link_list, name="share-link-list"),
    path("share-links/<id:link_id>/revoke/", views.share_link_revoke, name="share-link-revoke"),
    path("s/<str:token>/", views.shared, name="shared"),
    path("s/<str:token>/<id:position>/", views.shared, name="shared-scenario"),
]
