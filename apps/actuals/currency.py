"""Amounts billed in another currency than the project's: the one place that converts them.

Conversion at the rate of the charge's date belongs to the exchange rates (issue 23), which are
not here yet: until then an amount in another currency is refused, row by row, saying so. The
exchange work replaces `to_project_currency` and nothing else.
"""

from datetime import date
from decimal import Decimal

from django.utils.translation import gettext

from apps.actuals.reading import NotConvertible


def to_project_currency(
    amount: Decimal, currency: str, day: date, project_currency: str
) -> Decimal:
    """`amount` in `currency` charged on `day`, in the project's currency; raises NotConvertible
    (its text in the active language) when it cannot."""
    if currency == project_currency:
        return amount
    raise NotConvertible(
        gettext(
            "This amount is in %(currency)s, another currency than the project's "
            "(%(project_currency)s): conversion is not available yet. Export the bill in "
            "%(project_currency)s or import these rows separately once rates are available."
        )
        % {"currency": currency or "—", "project_currency": project_currency}
    )
