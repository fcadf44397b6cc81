"""Review pages: submit a project, the front office's queue, a review with its comments,
and the actions "return for changes" and "clear"."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.utils.translation import gettext, gettext_lazy, ngettext
from django.views.decorators.http import require_GET, require_POST

from apps.actuals.selectors import has_actuals, project_variance
from apps.budget.kept import budget_changes
from apps.projects.models import Project, StatusChangeRefused
from apps.projects.selectors import project_for_user
from apps.reviews import services
from apps.reviews.forms import ClearForm, CommentForm, QueueFilterForm, ReturnForm
from apps.reviews.selectors import (
    can_review,
    project_for_review,
    queue_rows,
    review_fiscal_years,
    review_queue,
    review_units,
    snapshot_review,
    timeline,
)

QUEUE_PAGE_SIZE = 50


@login_required
@require_POST
def project_submit(request: HttpRequest, project_id: int) -> HttpResponse:
    project = project_for_user(request.user, project_id)
    try:
        snapshot = services.project_submit(project=project, user=request.user)
    except StatusChangeRefused as refused:
        messages.error(request, str(refused))
    else:
        count = snapshot.scenario_versions.count()
        messages.success(
            request,
            ngettext(
                "“%(title)s” is submitted for review with its %(count)s scenario as it is now.",
                "“%(title)s” is submitted for review with its %(count)s scenarios as they are now.",
                count,
            )
            % {"title": project.title, "count": count},
        )
    return redirect("project-detail", project_id=project.pk)


def _reviewer_only(request: HttpRequest) -> None:
    if not can_review(request.user):
        raise PermissionDenied(gettext("Only the front office reviews workplans."))


@login_required
@require_GET
def queue(request: HttpRequest) -> TemplateResponse:
    _reviewer_only(request)
    form = QueueFilterForm(request.GET, units=review_units(), fiscal_years=review_fiscal_years())
    form.is_valid()  # invalid filters are shown with their errors; the others still apply
    filters = form.filters()
    page = Paginator(review_queue(**filters), QUEUE_PAGE_SIZE).get_page(request.GET.get("page"))
    fiscal_years, rows = queue_rows(list(page.object_list))
    query = request.GET.copy()
    query.pop("page", None)
    return TemplateResponse(
        request,
        "reviews/queue.html",
        {
            "form": form,
            "page": page,
            "rows": rows,
            "fiscal_years": fiscal_years,
            "sort": filters["sort"],
            "query": query.urlencode(),
        },
    )


def _review_page(request: HttpRequest, project: Project, **forms) -> TemplateResponse:
    """The review page with the forms given (bound ones keep what was typed) or blank ones."""
    snapshots = list(project.snapshots.select_related("created_by")[:2])
    snapshot = snapshots[0] if snapshots else None
    previous = snapshots[1] if len(snapshots) > 1 else None
    scenarios = snapshot_review(snapshot, previous) if snapshot else []
    reviewer = can_review(request.user)
    context = {
        "project": project,
        "snapshot": snapshot,
        "previous": previous,
        "budget_diff": budget_changes(previous.budget, snapshot.budget) if previous else None,
        "scenarios": scenarios,
        "hosting_warning": project.hosting_warning(s.version.inputs for s in scenarios),
        "timeline": timeline(project),
        "can_review": reviewer,
        "is_manager": Project.objects.for_user(request.user).filter(pk=project.pk).exists(),
        "comment_form": forms.get("comment_form") or CommentForm(),
        "return_form": forms.get("return_form") or ReturnForm(),
        "clear_form": forms.get("clear_form") or ClearForm(),
        "variance": _cleared_variance(project),
    }
    return TemplateResponse(request, "reviews/review.html", context)


def _cleared_variance(project: Project):
    """A cleared workplan's plan against actual, once it has actuals; else None."""
    if project.status != Project.Status.CLEARED or not has_actuals(project):
        return None
    return project_variance(project)[1]


@login_required
@require_GET
def review(request: HttpRequest, project_id: int) -> TemplateResponse:
    return _review_page(request, project_for_review(request.user, project_id))


@login_required
@require_POST
def comment_add(request: HttpRequest, project_id: int) -> HttpResponse:
    project = project_for_review(request.user, project_id)
    form = CommentForm(request.POST)
    if not form.is_valid():
        return _review_page(request, project, comment_form=form)
    services.comment_create(project=project, author=request.user, body=form.cleaned_data["body"])
    messages.success(request, gettext("Comment added."))
    return redirect("review-detail", project_id=project.pk)


@login_required
@require_POST
def project_return(request: HttpRequest, project_id: int) -> HttpResponse:
    return _status_change(
        request,
        project_id,
        form_class=ReturnForm,
        form_name="return_form",
        change=services.project_return,
        done=gettext_lazy("“%(title)s” is returned to its managers for changes."),
    )


@login_required
@require_POST
def project_clear(request: HttpRequest, project_id: int) -> HttpResponse:
    return _status_change(
        request,
        project_id,
        form_class=ClearForm,
        form_name="clear_form",
        change=services.project_clear,
        done=gettext_lazy("“%(title)s” is cleared."),
    )


def _status_change(
    request: HttpRequest, project_id: int, *, form_class, form_name: str, change, done
) -> HttpResponse:
    """A front office's return or clear: the form, the service, and the review page again."""
    project = project_for_review(request.user, project_id)
    _reviewer_only(request)
    form = form_class(request.POST)
    if not form.is_valid():
        return _review_page(request, project, **{form_name: form})
    try:
        change(project=project, user=request.user, comment=form.cleaned_data["comment"])
    except StatusChangeRefused as refused:
        messages.error(request, str(refused))
    else:
        messages.success(request, done % {"title": project.title})
    return redirect("review-detail", project_id=project.pk)
