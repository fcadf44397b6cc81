"""Alerts: a fiscal year's actual, or its forecast, crossing one of the project's thresholds
(by default 80 % and 100 % of the year's budget, on both) raises one alert per crossing, shown
on the plan-against-actual page and emailed through apps.notifications (one delivery per
crossing and recipient, queued when the transaction commits, retried when the mail server is
away) to the project's owner and collaborators and, for a cleared workplan, the front office,
each in their own language."""

from decimal import Decimal

from django.contrib.auth import get_user_model
from django.db import transaction
from django.urls import reverse
from django.utils.translation import gettext

from apps.actuals.models import Alert
from apps.actuals.selectors import alert_thresholds, project_variance
from apps.actuals.stamp import actuals_changed
from apps.budget.fiscal_labels import fiscal_year_text
from apps.notifications.deliveries import deliveries_create
from apps.notifications.links import absolute
from apps.notifications.models import Delivery
from apps.notifications.tasks import send_on_commit
from apps.projects.models import Project
from apps.projects.roles import FRONT_OFFICE
from apps.words.formatting import money

HUNDRED = Decimal(100)
CENT = Decimal("0.01")


def recipients(project: Project) -> list:
    people = [project.owner, *project.collaborators.all()]
    if project.status == Project.Status.CLEARED:
        people += list(get_user_model().objects.filter(groups__name=FRONT_OFFICE, is_active=True))
    return [user for user in {u.pk: u for u in people}.values() if user.email and user.is_active]


@transaction.atomic
def alerts_raise(*, project: Project) -> list[Alert]:
    """The alerts the project's actuals and forecasts newly cross (none twice), each emailed
    once to each recipient when the transaction commits."""
    settings = alert_thresholds(project)
    bases = [
        basis
        for basis, wanted in (
            (Alert.Basis.ACTUAL, settings.on_actual),
            (Alert.Basis.FORECAST, settings.on_forecast),
        )
        if wanted
    ]
    if not bases:
        return []
    thresholds = [(Decimal(share) / HUNDRED).quantize(CENT) for share in settings.percentages]
    _, variance = project_variance(project)
    raised = []
    for year in variance.years:
        budget = year.total.plan
        if budget <= 0 or year.forecast is None:
            continue
        amounts = {
            Alert.Basis.ACTUAL: year.total.actual,
            Alert.Basis.FORECAST: year.forecast.by_plan,
        }
        for basis in bases:
            for threshold in thresholds:
                if amounts[basis] < threshold * budget:
                    continue
                alert, created = Alert.objects.get_or_create(
                    project=project,
                    fiscal_year=year.label,
                    threshold=threshold,
                    basis=basis,
                    defaults={"amount": amounts[basis], "budget": budget},
                )
                if created:
                    raised.append(alert)
    if raised:
        actuals_changed(project.pk)  # the alerts show with plan against actual
        people = recipients(project)
        for alert in raised:
            send_on_commit(
                deliveries_create(
                    kind=Delivery.Kind.BUDGET_ALERT,
                    event=f"budget-alert:{alert.pk}",
                    object_id=alert.pk,
                    recipients=people,
                )
            )
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


def alert_email(delivery: Delivery) -> dict | None:
    """The context of a budget alert's email (notifications/email/budget_alert.html), in the
    active language; None when the alert is gone."""
    alert = Alert.objects.select_related("project").filter(pk=delivery.object_id).first()
    if alert is None:
        return None
    project = alert.project
    return {
        "project": project,
        "alert": alert_text(alert, project.currency),
        "link": absolute(reverse("project-actuals", args=[project.pk])),
    }
