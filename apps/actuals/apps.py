from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ActualsConfig(AppConfig):
    name = "apps.actuals"
    verbose_name = _("Plan against actual")

    def ready(self) -> None:
        from apps.actuals.alerts import alert_email
        from apps.notifications.emails import email_register
        from apps.notifications.models import Delivery

        email_register(Delivery.Kind.BUDGET_ALERT, alert_email)
