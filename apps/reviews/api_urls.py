"""API routes of reviews under /api/v1/."""

from django.urls import path

from apps.reviews import api, portfolio_views

urlpatterns = [
    path("reviews/", api.ReviewListView.as_view(), name="review-list"),
    path("portfolio/budget/", portfolio_views.portfolio_budget_view, name="portfolio-budget"),
    path("reviews/<id:project_id>/", api.ReviewDetailView.as_view(), name="review-detail"),
    path(
        "projects/<id:project_id>/submit/",
        api.ProjectSubmitView.as_view(),
        name="project-submit",
    ),
    path(
        "projects/<id:project_id>/return/",
        api.ProjectReturnView.as_view(),
        name="project-return",
    ),
    path("projects/<id:project_id>/clear/", api.ProjectClearView.as_view(), name="project-clear"),
    path(
        "projects/<id:project_id>/comments/",
        api.ProjectCommentsView.as_view(),
        name="project-comments",
    ),
]
