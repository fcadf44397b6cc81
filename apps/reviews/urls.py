"""Review pages: submitting a project, the front office's queue and each project's review."""

from django.urls import path

from apps.reviews import portfolio_views, views

urlpatterns = [
    path("projects/<int:project_id>/submit/", views.project_submit, name="project-submit"),
    path("reviews/", views.queue, name="review-queue"),
    path("portfolio/", portfolio_views.portfolio_page, name="portfolio"),
    path("portfolio/export.csv", portfolio_views.portfolio_export_csv, name="portfolio-export-csv"),
    path(
        "portfolio/export.xlsx",
        portfolio_views.portfolio_export_xlsx,
        name="portfolio-export-xlsx",
    ),
    path("reviews/<int:project_id>/", views.review, name="review-detail"),
    path("reviews/<int:project_id>/comments/", views.comment_add, name="review-comment"),
    path("reviews/<int:project_id>/return/", views.project_return, name="review-return"),
    path("reviews/<int:project_id>/clear/", views.project_clear, name="review-clear"),
]
