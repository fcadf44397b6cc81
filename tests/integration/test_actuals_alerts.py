"""Budget alerts: a fiscal year's actual or forecast crossing 80 % and 100 % of its budget
raises one alert per crossing, emailed through a real SMTP server in each recipient's
language, never twice."""

from datetime import date
from decimal import Decimal

import pytest

from apps.accounts.models import Preferences
from apps.actuals.alerts import alerts_raise
from apps.actuals.models import Alert
from apps.actuals.selectors import project_variance
from apps.actuals.services import actual_enter
from apps.budget.services import cost_line_create
from tests.factories import make_manager, make_project, make_scenario
from tests.integration.test_actuals_api import STORAGE
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
    messages = {message["To"]: message for message in smtp.mailbox.messages}
    assert set(messages) == {"ana@example.org", "bruno@example.org"}
    assert messages["ana@example.org"]["Subject"] == "Budget alert: Translation"
    english = messages["ana@example.org"].get_content()
    assert "FY2026: spending has reached 80 % of the year’s budget" in english
    assert "FY2026: the forecast outturn reaches 100 % of the year’s budget" in english
    french = messages["bruno@example.org"]
    assert french["Subject"] == "Alerte budgétaire\u00a0: Translation"
    assert "Exercice 2026\u00a0: les dépenses atteignent 80\u00a0%" in french.get_content()
    # The same actuals again: nothing new, no email.
    with django_capture_on_commit_callbacks(execute=True):
        assert alerts_raise(project=project) == []
    assert len(smtp.mailbox.messages) == 2
    # 20 % of the budget more in February: the actual's 100 % crossing, and only it.
    more = (budget * Decimal("0.20")).quantize(Decimal("0.01"))
    actual_enter(project=project, month=date(2026, 2, 1), kind="storage", amount=more)
    with django_capture_on_commit_callbacks(execute=True):
        raised = alerts_raise(project=project)
    assert [(a.basis, str(a.threshold)) for a in raised] == [("actual", "1.00")]
    assert len(smtp.mailbox.messages) == 4
