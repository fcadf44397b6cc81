"""Front-office review: the queue of submitted workplans, comments, return and clear."""

from django.apps import AppConfig


class ReviewsConfig(AppConfig):
    name = "apps.reviews"
    verbose_name = "Reviews"
