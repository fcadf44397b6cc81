"""`{% plan_against_actual project %}`: the project's plan against actual by fiscal year and its
budget alerts, where the project's and the baseline's budget pages show them, once anything was
billed to it (nothing otherwise: the page's link to the actuals stays)."""

from django import template

from apps.actuals.alerts import alert_text
from apps.actuals.selectors import alerts_of, has_actuals, project_variance

register = template.Library()


@register.inclusion_tag("actuals/includes/plan_against_actual.html")
def plan_against_actual(project, place: str = "project") -> dict:
    if project is None or not has_actuals(project):
        return {"shown": False}
    _, variance = project_variance(project)
    return {
        "shown": True,
        "project": project,
        "variance": variance,
        "alerts": [alert_text(alert, project.currency) for alert in alerts_of(project)[:3]],
        "caption_id": f"{place}-variance-caption",
    }
