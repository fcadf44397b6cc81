"""Alerts: a fiscal year's actual, or its forecast, crossing 80 % or 100 % of the year's
budget raises one alert per crossing, shown on the plan-against-actual page and emailed (after
the commit) to the project's owner and collaborators and, for a cleared workplan, the front
office, each in their own language."""

import logging
from decimal import Decimal

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.mail import send_mail
from django.db import transaction
from django.utils import translation
from django.utils.translation import gettext

from apps.accounts.language import language_preference
from apps.actuals.models import Alert
from apps.actuals.selectors import project_variance
from apps.budget.fiscal_labels import fiscal_year_text
from apps.projects.models import Project
from apps.projects.roles import FRONT_OFFICE
from apps.words.formatting import money

logger = logging.getLogger(__name__)

THRESHOLDS = (Decimal("0.80"), Decimal("1.00"))


def recipients(project: Project) -> list:
    people = [project.owner, *project.collaborators.all()]
    if project.status == Project.Status.CLEARED:
        people += list(get_user_model().objects.filter(groups__name=FRONT_OFFICE, is_active=True))
    return [user for user in {u.pk: u for u in people}.values() if user.email and user.is_active]


@transaction.atomic
def alerts_raise(*, project: Project) -> list[Alert]:
    """The alerts the project's actuals and forecasts newly cross (none twice), emailed once
    the transaction commits."""
    _, variance = project_variance(project)
    raised = []
    for year in variance.years:
        budget = year.total.plan
        if budget <= 0 or year.forecast is None:
            continue
        for basis, amount in (
            (Alert.Basis.ACTUAL, year.total.actual),
            (Alert.Basis.FORECAST, year.forecast.by_plan),
        ):
            for threshold in THRESHOLDS:
                if amount < threshold * budget:
                    continue
                alert, created = Alert.objects.get_or_create(
                    project=project,
                    fiscal_year=year.label,
                    threshold=threshold,
                    basis=basis,
                    defaults={"amount": amount, "budget": budget},
                )
                if created:
                    raised.append(alert)
    if raised:
        people = recipients(project)
        transaction.on_commit(lambda: _email(project, raised, people), robust=True)
    return raised


def alert_text(alert: Alert, currency: str) -> str:
    """The alert in the active language."""
    words = {
        "year": fiscal_year_text(alert.fiscal_year),
        "share": f"{alert.threshold * 100:.0f}",
        "amount": money(alert.amount, currency).text,
        "budget": money(alert.budget, currency).text,
    }
    if alert.basis == Alert.Basis.ACTUAL:
        return (
            gettext(
                "%(year)s: spending has reached %(share)s %% of the year’s budget "
                "(%(amount)s of %(budget)s)."
            )
            % words
        )
    return (
        gettext(
            "%(year)s: the forecast outturn reaches %(share)s %% of the year’s budget "
            "(%(amount)s of %(budget)s)."
        )
        % words
    )


def _email(project: Project, alerts: list[Alert], people: list) -> None:
    for user in people:
        with translation.override(language_preference(user) or settings.LANGUAGE_CODE):
            subject = gettext("Budget alert: %(title)s") % {"title": project.title}
            body = "\n".join(alert_text(alert, project.currency) for alert in alerts)
            try:
                send_mail(subject, body, None, [user.email])
            except OSError:
                logger.exception("Budget alert for project %s not sent to %s", project.pk, user.pk)
