"""What plan against actual connects once Django's registry is ready: the budget alert's email,
and the stamp of the actuals in the cached scenario page's key."""

from apps.actuals.alerts import alert_email
from apps.actuals.stamp import actuals_stamp
from apps.notifications.emails import email_register
from apps.notifications.models import Delivery
from apps.projects import page_parts


def connect() -> None:
    email_register(Delivery.Kind.BUDGET_ALERT, alert_email)
    # The baseline's page shows plan against actual ({% plan_against_actual %}); its cached
    # copy is keyed by the actuals' stamp. The part adds nothing else to the pages.
    page_parts.register(
        page_parts.PagePart(
            scenario_context=_nothing,
            scenario_stamp=actuals_stamp,
            project_context=_nothing,
            versions_context=_nothing,
        )
    )


def _nothing(*args, **kwargs) -> dict:
    return {}
