"""Share-link pages: the team creates, lists and revokes links; anyone with a link reads it."""

from collections.abc import Callable
from functools import wraps

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from apps.budget.kept import drawn_up_from_record, version_budget
from apps.budget.presentation import table
from apps.budget.ranges import budget_ranges
from apps.core.client_address import client_address
from apps.core.ratelimit import Budget, too_many_requests
from apps.options.kept import frozen_options_context, version_options
from apps.projects.models import ProjectSnapshot, ScenarioVersion
from apps.projects.presentation import comparison_context
from apps.projects.range_results import shared_ranges_context
from apps.projects.selectors import project_for_user, scenario_for_user
from apps.projects.versions import version_estimate
from apps.sharing import services
from apps.sharing.forms import ShareLinkForm
from apps.sharing.models import ShareLink, ShareLinkQuerySet
from apps.sharing.selectors import active_link, latest_snapshot, latest_version, shared_versions

# Every request for a shared page counts against the first budget; every unknown, expired or
# revoked token also against the second, which, once spent, refuses even valid tokens so that
# the answer tells a guesser nothing.
SHARED_PAGE_BUDGET = Budget("shared-page", requests=60, seconds=60)
UNKNOWN_TOKEN_BUDGET = Budget("shared-page-miss", requests=20, seconds=60 * 60)

# Shared pages leave no trace in other sites' logs, search engines or caches. What they may load
# is the site-wide Content Security Policy's business (settings.SECURE_CSP): this host only.
SHARED_PAGE_HEADERS = {
    "Referrer-Policy": "no-referrer",
    "X-Robots-Tag": "noindex",
    "Cache-Control": "no-store",
}


def shared_page(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """Rate limits per client address and the headers of a shared page, on every answer."""

    @wraps(view)
    def wrapped(request: HttpRequest, *args, **kwargs) -> HttpResponse:
        address = client_address(request)
        retry_after = SHARED_PAGE_BUDGET.spend(address) or UNKNOWN_TOKEN_BUDGET.spent(address)
        if retry_after:
            response = too_many_requests(request, retry_after_seconds=retry_after)
        else:
            response = view(request, *args, **kwargs)
            if response.status_code == 404:
                UNKNOWN_TOKEN_BUDGET.spend(address)
        for header, value in SHARED_PAGE_HEADERS.items():
            response[header] = value
        return response

    return wrapped


def _unavailable(request: HttpRequest) -> TemplateResponse:
    # One answer for unknown, expired and revoked links alike.
    return TemplateResponse(request, "sharing/unavailable.html", status=404)


@shared_page
@require_GET
def shared(request: HttpRequest, token: str, position: int = 1) -> HttpResponse:
    """What a link shows, read-only and without an account; 404 once expired or revoked."""
    link = active_link(token)
    if link is None:
        return _unavailable(request)
    versions = shared_versions(link)
    if not 1 <= position <= len(versions):
        return _unavailable(request)
    version = versions[position - 1]
    services.share_link_record_view(link=link)
    view = "single" if request.GET.get("view") == "single" else "many"
    kept = version_estimate(version)
    return TemplateResponse(
        request,
        "sharing/shared.html",
        {
            "link": link,
            "token": token,
            "project": link.project,
            "versions": versions,
            "version": version,
            "position": position,
            "read_only": True,
            **frozen_budget_context(link, version),
            **frozen_options_context(version_options(version)),
            **comparison_context(
                kept.result,
                notes={},
                view=view,
                # The currency the version's prices were converted into, at its pinned rate.
                currency=kept.exchange.to_currency if kept.exchange else "USD",
                ranges=kept.ranges,
                exchange=kept.exchange,
            ),
            **shared_ranges_context(version.inputs),
        },
    )


def frozen_budget_context(link: ShareLink, version: ScenarioVersion) -> dict:
    """The budget a link shows, as it was kept: a snapshot's is the project's (its baseline's,
    when submitted), a version's its own when saved. Never drawn up again."""
    record = link.snapshot.budget if link.snapshot else version_budget(version)
    if not record:
        return {"budget": None}
    drawn_up = drawn_up_from_record(record)
    return {
        "budget": drawn_up,
        "table": table(drawn_up),
        "budget_ranges": budget_ranges(drawn_up),
        "show_chart": False,
    }


def _share_page(
    request: HttpRequest,
    *,
    subject: ScenarioVersion | ProjectSnapshot | None,
    links: ShareLinkQuerySet,
    context: dict,
) -> TemplateResponse:
    """GET shows the form and the links; POST creates a link and shows its URL this once."""
    form = ShareLinkForm(request.POST if request.method == "POST" else None)
    new_link = new_url = None
    if request.method == "POST" and subject is not None and form.is_valid():
        new_link, token = services.share_link_create(
            subject=subject, user=request.user, **form.cleaned_data
        )
        new_url = request.build_absolute_uri(reverse("shared", args=[token]))
        form = ShareLinkForm()
    return TemplateResponse(
        request,
        "sharing/share.html",
        {
            **context,
            "subject": subject,
            "form": form,
            "links": links.with_subject(),
            "new_link": new_link,
            "new_url": new_url,
        },
    )


@never_cache
@login_required
@require_http_methods(["GET", "POST"])
def scenario_share(request: HttpRequest, scenario_id: int) -> TemplateResponse:
    scenario = scenario_for_user(request.user, scenario_id)
    return _share_page(
        request,
        subject=latest_version(scenario),
        links=ShareLink.objects.filter(scenario_version__scenario=scenario),
        context={"scenario": scenario, "project": scenario.project},
    )


@never_cache
@login_required
@require_http_methods(["GET", "POST"])
def project_share(request: HttpRequest, project_id: int) -> TemplateResponse:
    project = project_for_user(request.user, project_id)
    return _share_page(
        request,
        subject=latest_snapshot(project),
        links=ShareLink.objects.filter(project=project, snapshot__isnull=False),
        context={"project": project},
    )


@login_required
@require_GET
def share_link_list(request: HttpRequest) -> TemplateResponse:
    links = ShareLink.objects.for_user(request.user).with_subject()
    return TemplateResponse(request, "sharing/share_link_list.html", {"links": links})


@login_required
@require_POST
def share_link_revoke(request: HttpRequest, link_id: int) -> HttpResponse:
    link = get_object_or_404(ShareLink.objects.for_user(request.user), pk=link_id)
    services.share_link_revoke(link=link, user=request.user)
    messages.success(
        request,
        gettext("The link “%(label)s” is revoked: it no longer opens.") % {"label": link.label},
    )
    back = request.POST.get("next", "")
    if url_has_allowed_host_and_scheme(
        back, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return redirect(back)
    return redirect("share-link-list")
