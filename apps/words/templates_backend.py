"""The project's template engine: Django's, with the `i18n` library given on purpose to
apps.words.templatetags.remembered_i18n (Django's tags, a constant's translation remembered per
catalogue; config/settings.py maps the name)."""

from django.template.backends.django import DjangoTemplates

REMEMBERED_I18N = "apps.words.templatetags.remembered_i18n"
# What Django's check says of the name given to two modules, this replacement and Django's own.
_REPLACED = (
    f"'i18n' is used for multiple template tag modules: '{REMEMBERED_I18N}', "
    "'django.templatetags.i18n'"
)


class Templates(DjangoTemplates):
    """Django's template engine; its check of library names passes over the one replacement made
    on purpose and still warns of any other name two modules share."""

    def _check_for_template_tags_with_the_same_name(self):
        return [
            warning
            for warning in super()._check_for_template_tags_with_the_same_name()
            if not (warning.id == "templates.W003" and warning.msg == _REPLACED)
        ]
