"""A write refused because its project is frozen, for the pages of every app that writes to one."""

from collections.abc import Callable
from functools import wraps

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect

from apps.projects.models import ProjectFrozen


def refuses_frozen_projects(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """A write refused because the project is frozen (submitted or cleared) sends the user to
    the project's page with the reason, where its status and review are shown."""

    @wraps(view)
    def wrapper(request: HttpRequest, *args, **kwargs) -> HttpResponse:
        try:
            return view(request, *args, **kwargs)
        except ProjectFrozen as frozen:
            messages.error(request, str(frozen))
            return redirect("project-detail", project_id=frozen.project_id)

    return wrapper
