"""Budget alerts: a fiscal year's actual or forecast crossing the project's thresholds (80 % and
100 % of its budget unless changed) raises one alert per crossing, emailed through
apps.notifications' deliveries to a real SMTP server, once per crossing and recipient, in each
recipient's language, never twice."""

import contextlib
from datetime import date
from decimal import Decimal

import pytest

from apps.accounts.models import Preferences
from apps.actuals.alerts import alerts_raise
from apps.actuals.models import Alert
from apps.actuals.selectors import project_variance
from apps.actuals.services import actual_enter, alert_thresholds_update
from apps.budget.services import cost_line_create
from apps.notifications import deliveries, tasks
from apps.notifications.models import Delivery
from tests.actuals_worlds import STORAGE
from tests.factories import make_manager, make_project, make_scenario
from tests.mailbox import SmtpServer

pytestmark = pytest.mark.django_db


@pytest.fixture
def smtp(settings):
    server = SmtpServer().start()
    settings.MAILERS = {
        "default": {
            "BACKEND": "django.core.mail.backends.smtp.EmailBackend",
            "OPTIONS": {"host": "127.0.0.1", "port": server.port, "timeout": 10},
        }
    }
    yield server
    server.stop()


@pytest.fixture(autouse=True)
def sent_at_once(monkeypatch):
    """Each delivery's task run in the test's process as it is queued (the worker's part is
    test_notifications_smtp's), its temporary failures left to a later try."""

    def send(delivery_id):
        with contextlib.suppress(deliveries.TemporaryFailure):
            deliveries.delivery_send(delivery_id=delivery_id)

    monkeypatch.setattr(tasks.delivery_send, "delay", send)


@pytest.fixture
def project():
    owner = make_manager("ana")
    owner.email = "ana@example.org"
    owner.save(update_fields=["email"])
    colleague = make_manager("bruno")
    colleague.email = "bruno@example.org"
    colleague.save(update_fields=["email"])
    Preferences.objects.create(user=colleague, language="fr")
    project = make_project(
        owner, "Translation", period_start=date(2026, 1, 1), period_end=date(2026, 12, 31)
    )
    project.collaborators.add(colleague)
    scenario = make_scenario(project, "Pilot", is_baseline=True)
    cost_line_create(scenario=scenario, fields=STORAGE, user=owner)
    return project


def crossings(project) -> set[tuple[str, str]]:
    return {(a.basis, str(a.threshold)) for a in Alert.objects.filter(project=project)}


def test_crossings_are_raised_once_each_and_emailed_in_each_language(
    project, smtp, django_capture_on_commit_callbacks
):
    _, variance = project_variance(project)
    year = variance.years[0]
    budget, january = year.total.plan, year.months[0].total.plan
    # January's actual: 85 % of the year's budget, more than January's plan, so the actual
    # crosses 80 % only, and the forecast (that actual + the plan of the eleven months left,
    # over the year's budget by what January overspent) crosses 80 % and 100 %.
    spent = (budget * Decimal("0.85")).quantize(Decimal("0.01"))
    assert spent > january
    actual_enter(project=project, month=date(2026, 1, 1), kind="storage", amount=spent)
    with django_capture_on_commit_callbacks(execute=True):
        alerts_raise(project=project)
    assert crossings(project) == {("actual", "0.80"), ("forecast", "0.80"), ("forecast", "1.00")}
    # One email per crossing and recipient.
    messages = smtp.mailbox.messages
    assert (
        sorted(message["To"] for message in messages)
        == ["ana@example.org"] * 3 + ["bruno@example.org"] * 3
    )
    english = [m for m in messages if m["To"] == "ana@example.org"]
    assert {m["Subject"] for m in english} == {"Budget alert: Translation"}
    english_text = "".join(m.get_body(("plain",)).get_content() for m in english)
    assert "FY2026: spending has reached 80 % of the year’s budget" in english_text
    assert "FY2026: the forecast outturn reaches 100 % of the year’s budget" in english_text
    assert "/actuals/" in english_text
    french = [m for m in messages if m["To"] == "bruno@example.org"]
    assert {m["Subject"] for m in french} == {"Alerte budgétaire\u00a0: Translation"}
    french_text = "".join(m.get_body(("plain",)).get_content() for m in french)
    assert "Exercice 2026\u00a0: les dépenses atteignent 80\u00a0%" in french_text
    assert Delivery.objects.filter(kind="budget_alert", sent_at__isnull=False).count() == 6
    # The same actuals again: nothing new, no email.
    with django_capture_on_commit_callbacks(execute=True):
        assert alerts_raise(project=project) == []
    assert len(smtp.mailbox.messages) == 6
    # 20 % of the budget more in February: the actual's 100 % crossing, and only it.
    more = (budget * Decimal("0.20")).quantize(Decimal("0.01"))
    actual_enter(project=project, month=date(2026, 2, 1), kind="storage", amount=more)
    with django_capture_on_commit_callbacks(execute=True):
        raised = alerts_raise(project=project)
    assert [(a.basis, str(a.threshold)) for a in raised] == [("actual", "1.00")]
    assert len(smtp.mailbox.messages) == 8


def test_the_projects_own_thresholds_and_basis_are_the_ones_raised(
    project, smtp, django_capture_on_commit_callbacks
):
    alert_thresholds_update(
        project=project, percentages=[50, 90], on_actual=True, on_forecast=False
    )
    _, variance = project_variance(project)
    budget = variance.years[0].total.plan
    spent = (budget * Decimal("0.60")).quantize(Decimal("0.01"))
    actual_enter(project=project, month=date(2026, 1, 1), kind="storage", amount=spent)
    with django_capture_on_commit_callbacks(execute=True):
        alerts_raise(project=project)
    assert crossings(project) == {("actual", "0.50")}
    assert len(smtp.mailbox.messages) == 2
    alert_thresholds_update(project=project, percentages=[80], on_actual=False, on_forecast=False)
    more = (budget * Decimal("0.40")).quantize(Decimal("0.01"))
    actual_enter(project=project, month=date(2026, 2, 1), kind="storage", amount=more)
    with django_capture_on_commit_callbacks(execute=True):
        assert alerts_raise(project=project) == []


def test_an_alert_the_mail_server_could_not_take_arrives_once_later(
    project, smtp, django_capture_on_commit_callbacks
):
    alert_thresholds_update(project=project, percentages=[50], on_actual=True, on_forecast=False)
    _, variance = project_variance(project)
    spent = (variance.years[0].total.plan * Decimal("0.60")).quantize(Decimal("0.01"))
    actual_enter(project=project, month=date(2026, 1, 1), kind="storage", amount=spent)
    smtp.mailbox.temporary_failures = 2  # 451 to both recipients' first try
    with django_capture_on_commit_callbacks(execute=True):
        alerts_raise(project=project)
    assert smtp.mailbox.messages == []
    pending = list(Delivery.objects.pending().values_list("pk", flat=True))
    assert len(pending) == 2
    for delivery_id in pending * 2:  # sent again, twice: once each
        deliveries.delivery_send(delivery_id=delivery_id)
    assert sorted(m["To"] for m in smtp.mailbox.messages) == [
        "ana@example.org",
        "bruno@example.org",
    ]
